#!/bin/bash
# Issue #28, sixth round, step 1 on one GPU in one call: every form (selector 0) with s12 (f25e4b3, the fifth round's
# kernel) and s13 (registers packed one layout cell per register, A by one vector load; the metadata nibbles' draw
# split among idle lanes; the narrow one-block judge taking a lane's two D elements of one row together), then the
# float forms and the 4-bit k128 forms again in the other order; then gpu_resident_test with s13 (device cases and D
# equal the host's for every pair, every fault caught where it changes a result). Run from the repository root with
# gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s12/*.xz s13/*.xz; do xz -d -f -k $f; done; chmod +x s12/* s13/*)
exec > >(tee -a "$OUT/step1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s12 s13; do
  echo "== every form, $k"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 | grep -E "^(mma|form|ordered)" > $OUT/table-all-$k.txt
  grep -c . $OUT/table-all-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
for k in s13 s12; do
  echo "== float and k128, $k"; s=$(date +%s)
  for f in f16.f16 bf16 tf32 e4m3.e e5m2.e k128; do
    $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^(mma|form|ordered)"
  done > $OUT/table-again-$k.txt
  grep -c . $OUT/table-again-$k.txt; echo "in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s13/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s13/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
