#!/bin/bash
# Issue #28, sixth round, step 4 on one GPU in one call: every form (selector 0) with s12 (f25e4b3) and s16 (Mode::issue
# in a kernel of its own, so that the judging kernels hold no call: ptxas frames lean 888 -> 560 bytes, spill stores
# 852 -> 24), then the float, 4-bit k128 and 8-bit k32 forms in the other order; gpu_resident_test with s16 (device
# cases and D equal the host's for every pair, every fault caught where it changes a result); a D bit flipped in 1 of
# 10^8 cases for 60 s with s16. Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s12/*.xz s16/*.xz; do xz -d -f -k $f; done; chmod +x s12/* s16/*)
exec > >(tee -a "$OUT/step4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s12 s16; do
  echo "== every form, $k"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 | grep -E "^mma" > $OUT/table4-all-$k.txt
  grep -c . $OUT/table4-all-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
for k in s16 s12; do
  echo "== float, k128 and k32 8-bit, $k"; s=$(date +%s)
  for f in f16.f16 bf16 tf32 e4m3.e e5m2.e k128 m16n8k32.row.col.s32 m16n8k32.row.col.satfinite; do
    $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^mma"
  done > $OUT/table4-again-$k.txt
  grep -c . $OUT/table4-again-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s16/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s16/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
$G/s16/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
cd $OUT && tar czf step4-tables.tgz table4-*.txt && rm table4-*.txt
