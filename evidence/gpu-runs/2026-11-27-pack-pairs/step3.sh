#!/bin/bash
# Issue #28, sixth round, step 3 on one GPU in one call: s15 (s14 with pack_registers a loop over the registers
# instead of unrolled; ptxas gave its lean kernels 1,336- and 1,232-byte stack frames, s12's 888 and 776) against s12
# (f25e4b3), alternated twice: the float forms, the 4-bit k128 forms and the 8-bit k32 forms (selector 0). Run from the
# repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s12/resident_benchmark.xz s15/*.xz; do xz -d -f -k $f; done; chmod +x s12/* s15/*)
exec > >(tee -a "$OUT/step3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
  for k in s12 s15; do
    echo "== round $round, $k"; s=$(date +%s)
    for f in f16.f16 bf16 tf32 e4m3.e e5m2.e k128 m16n8k32.row.col.s32 m16n8k32.row.col.satfinite; do
      $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^mma"
    done > $OUT/table3-r$round-$k.txt
    grep -c . $OUT/table3-r$round-$k.txt; echo "in $(( $(date +%s) - s )) s"
  done
done
cd $OUT && tar czf step3-tables.tgz table3-*.txt && rm table3-*.txt
