#!/bin/bash
# Issue #28, ninth session, second call, on one GPU: the kernels each with the binary whose tables they were built for.
# old: the previous commit's build (gpu-carry8/o, built at dc0383b; d771719 changed no kernel code), its embedded
# image. new: this session's build (gpu-carry8/n), its embedded image. vr: d771719's sources with the rounding fix
# alone (old tables), run by old. vc: this session's sources without the rounding fix (the integer cancellation alone),
# run by new. Every form old then new; the integer and float forms again new then old; the float forms with vr and vc;
# then new with d771719's image (base.cubin) on two integer forms, which the new self-check must refuse.
# Run from the repository root with gpu-carry8 carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/*.xz o/*.xz x/*.xz; chmod +x n/* o/*)
exec > >(tee -a "$OUT/measure2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== old, every form"; s=$(date +%s)
$G/o/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table2-all-old.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== new, every form"; s=$(date +%s)
$G/n/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table2-all-new.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== integer and float forms again: new, then old"; s=$(date +%s)
for f in .s32 .f16 .bf16 .tf32; do $G/n/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/table2-again-new.txt
for f in .s32 .f16 .bf16 .tf32; do $G/o/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/table2-again-old.txt
echo "again: $(( $(date +%s) - s )) s"; s=$(date +%s)
for f in .f16 .bf16 .tf32; do $G/o/resident_benchmark --image-file $G/x/vr.cubin --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/table2-float-vr.txt
for f in .f16 .bf16 .tf32; do $G/n/resident_benchmark --image-file $G/x/vc.cubin --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/table2-float-vc.txt
echo "variants: $(( $(date +%s) - s )) s"
echo "== new with d771719's image on two integer forms (the self-check must refuse them)"
$G/n/resident_benchmark --image-file $G/x/base.cubin --form k128.row.col.s32.s4.s4 --host-cases 0 --seconds 0.2; echo "exit $?"
