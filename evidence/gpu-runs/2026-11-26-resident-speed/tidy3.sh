#!/bin/bash
# The tidy-up with the accumulator passed by flag and reference (tidy2.log: a pointer cost e4m3 k64 3 %): the GPU
# resident test, and four forms against 008e8ba alternated twice (compare the ratios with final2.log's). One H100.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_*)
exec > >(tee -a "$OUT/tidy3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
s=$(date +%s); timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
