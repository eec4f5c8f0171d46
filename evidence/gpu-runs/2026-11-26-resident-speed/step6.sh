#!/bin/bash
# Step 6 (issue #28): the narrow model's A rows padded by one word (eight rows, eight banks); six forms
# before (008e8ba) and after, alternated, and the GPU resident test. One H100, one call.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_resident_test mmasp)
exec > >(tee -a "$OUT/step6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16" \
         "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" "ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
s=$(date +%s); timeout 150 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
