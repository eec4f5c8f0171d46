#!/bin/bash
# Issue #28: final-c's table showed m16n8k16 f16->f16 and bf16 k16 about 10 % slower with s5 than with s4 (final-a),
# though drawn/s and judged/s rose. s5 (two SplitMix outputs per round, the sampler class as one record) against s6
# (s5 with one output per round again) and 4cce479 (base), alternated twice on five forms in one call.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s5/resident_benchmark.xz s6/resident_benchmark.xz; do xz -d -f $f; done; chmod +x resident_benchmark_base s5/* s6/*)
exec > >(tee -a "$OUT/step5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
for f in "sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" \
         "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16"; do
  for b in resident_benchmark_base s5/resident_benchmark s6/resident_benchmark; do
    printf "%-24s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
