#!/bin/bash
# Issue #28, tenth session, step 5, on one GPU in one call: v5, the dense integer bytes written over the case's A and
# B codes once the registers are packed (PairTables::dense_over_codes: every m16n8k64 and m16n8k128 integer form), so
# that the case alone sizes a warp's shared memory (m16n8k128 4-bit: 20 warps per multiprocessor instead of 16), and
# the bytes spread once per case, before the instruction, where the cancellation profile's C is found from them. The
# build at this step (its own binary and image) against ca24c58's (base): every form base, v5; the integer, f16, bf16
# and tf32 forms again v5, base; then gpu_resident_test with v5. Tables in table5.tgz. Run from the repository root
# with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/resident_benchmark.xz v5/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v5/*)
exec > >(tee -a "$OUT/measure5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
T=$(mktemp -d)
for k in base v5; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $T/table5-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v5 base; do
  for f in .s32 .f16 .bf16 .tf32; do $G/$k/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma|NOT MEASURED"; done > $T/table5-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
grep -c "NOT MEASURED" $T/*.txt
tar czf $OUT/table5.tgz -C $T .
export MMASP_BINARY=$G/v5/mmasp
s=$(date +%s); timeout 200 $G/v5/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test v5 $(( $(date +%s) - s )) s"
