#!/bin/bash
# Issue #28: the kernel of 4cce479 (base), s3 (f323be3: 32-bit product sums, fp8's own kernel) and s4 (s3 + f16, bf16
# and tf32 codes looked up in tables), alternated twice on six forms in one call. Run from the repository root with
# gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s3/resident_benchmark.xz s4/resident_benchmark.xz; do xz -d -f $f; done; chmod +x resident_benchmark_base s3/* s4/*)
exec > >(tee -a "$OUT/step3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4" \
         "sync.aligned.m16n8k16.row.col.f32.tf32" "sync.aligned.m16n8k32.row.col.f16.f16.f16.f16"; do
  for b in resident_benchmark_base s3/resident_benchmark s4/resident_benchmark; do
    printf "%-24s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
