#!/bin/bash
# Issue #28, fifth round, step 1 on one GPU in one call: the float forms (selector 0) with s10 (9b20860, the fourth
# round's kernel), s12a (C's and D's formats compile-time constants in the narrow judge: PairTables::
# narrow_accumulator) and s12b (s12a, and decode_operand's field without finding a normal code's leading bit),
# alternated, two rounds; then gpu_resident_test with s12b (device cases and D equal the host's for every pair, every
# fault caught where it changes a result). Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s10/*.xz s12a/*.xz s12b/*.xz; do xz -d -f -k $f; done; chmod +x s10/* s12a/* s12b/*)
exec > >(tee -a "$OUT/step1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
  for k in s10 s12a s12b; do
    echo "== round $round $k"; s=$(date +%s)
    for f in f16.f16 bf16 tf32 e4m3.e e5m2.e; do
      $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^(mma|form)" 
    done > $OUT/table-step1-r$round-$k.txt
    grep -c mma $OUT/table-step1-r$round-$k.txt; echo "in $(( $(date +%s) - s )) s"
  done
done
export MMASP_BINARY=$G/s12b/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 300 $G/s12b/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
cd $OUT && tar czf step1-tables.tgz table-step1-*.txt && rm table-step1-*.txt
