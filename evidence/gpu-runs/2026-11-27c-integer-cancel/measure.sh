#!/bin/bash
# Issue #28, ninth session, on one GPU in one call: the kernel of this session's build (new: the integer forms'
# cancellation C in 32-bit integers, and round_to's tie at a shift of 64) against the kernel before (base: d771719's
# cubin, loaded by the same resident_benchmark with --image-file). Every form, base then new; then the integer forms
# new then base, and the float forms new then base. Run from the repository root with gpu-carry8 carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/*.xz x/base.cubin.xz; chmod +x n/*)
exec > >(tee -a "$OUT/measure.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== base, every form"; s=$(date +%s)
$G/n/resident_benchmark --image-file $G/x/base.cubin --host-cases 0 --seconds 0.2 > $OUT/table-all-base.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== new, every form"; s=$(date +%s)
$G/n/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table-all-new.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== integer and float forms again: new, then base"; s=$(date +%s)
for f in .s32 .f16 .bf16 .tf32; do $G/n/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^(ord )?mma"; done > $OUT/table-again-new.txt
for f in .s32 .f16 .bf16 .tf32; do
  $G/n/resident_benchmark --image-file $G/x/base.cubin --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^(ord )?mma"; done > $OUT/table-again-base.txt
echo "again: $(( $(date +%s) - s )) s"
