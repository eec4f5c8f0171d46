#!/bin/bash
# Issue #28, tenth session, step 7, on one GPU in one call: v7, the build at this step. v6's dense bytes over the
# codes, but in lean kernels of their own (mmasp_resident_lean_dense and _dense_768, resident_cases<true, false, true>)
# that judge only PairTables::dense_over_codes pairs (every m16n8k64 and m16n8k128 integer form); the lean, lean_768,
# fp8 and general kernels keep ca24c58's code. Every form base (ca24c58's binary and image), v7; the integer and f16
# forms again v7, base; gpu_resident_test with v7 (both images); a D bit flipped in 1 of 10^8 cases for 60 s.
# Tables in table7.tgz. Run from the repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/resident_benchmark.xz v7/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v7/*)
exec > >(tee -a "$OUT/measure7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
T=$(mktemp -d)
for k in base v7; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $T/table7-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v7 base; do
  for f in .s32 .f16; do $G/$k/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma|NOT MEASURED"; done > $T/table7-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
grep -c "NOT MEASURED" $T/*.txt
tar czf $OUT/table7.tgz -C $T .
export MMASP_BINARY=$G/v7/mmasp
s=$(date +%s); timeout 200 $G/v7/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test v7 $(( $(date +%s) - s )) s"
$G/v7/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
