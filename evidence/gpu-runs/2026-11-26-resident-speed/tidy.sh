#!/bin/bash
# After the tidy-up commit (one block's passes shared by narrow::element and one_block_element, a_element_column,
# narrow_a_slot reused, unroll macros): the GPU suites, and four forms against the kernel of 6d611f7, alternated. One H100.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in resident_benchmark.xz resident_benchmark_prev.xz gpu_resident_test.xz gpu_execution_test.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_*)
exec > >(tee -a "$OUT/tidy.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 150 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_prev resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
