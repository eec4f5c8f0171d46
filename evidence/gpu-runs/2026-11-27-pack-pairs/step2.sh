#!/bin/bash
# Issue #28, sixth round, step 2 on one GPU in one call: every form (selector 0) with s12 (f25e4b3, the fifth round's
# kernel), s14 (registers packed one layout cell per register, A by one vector load; the metadata nibbles' draw split
# among idle lanes) and s14b (s14 without the split draw); then the float forms, the 4-bit k128 forms and the 8-bit
# k32 forms again in the other order; then gpu_resident_test with s14 (device cases and D equal the host's for every
# pair, every fault caught where it changes a result). Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s12/*.xz s14/*.xz s14b/*.xz; do xz -d -f -k $f; done; chmod +x s12/* s14/* s14b/*)
exec > >(tee -a "$OUT/step2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s12 s14 s14b; do
  echo "== every form, $k"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 | grep -E "^mma" > $OUT/table2-all-$k.txt
  grep -c . $OUT/table2-all-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
for k in s14b s14 s12; do
  echo "== float, k128 and k32 8-bit, $k"; s=$(date +%s)
  for f in f16.f16 bf16 tf32 e4m3.e e5m2.e k128 m16n8k32.row.col.s32 m16n8k32.row.col.satfinite; do
    $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^mma"
  done > $OUT/table2-again-$k.txt
  grep -c . $OUT/table2-again-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s14/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s14/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
cd $OUT && tar czf step2-tables.tgz table2-*.txt && rm table2-*.txt
