#!/bin/bash
# Issue #28, closing measurements of the kernel with the 80-register lean kernel for pairs that shared memory limits
# below 32 warps (registers.log), on one H100 in one call: four forms alternated with 008e8ba; every sm_90 form
# (selector 0), one table after the other; the GPU resident test; a D bit flipped in 1 of 10^8 cases for 60 s.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in resident_benchmark.xz resident_benchmark_base.xz gpu_resident_test.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_resident_test)
exec > >(tee -a "$OUT/final2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
for b in resident_benchmark_base resident_benchmark; do
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table2-$b.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s); timeout 150 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
$G/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
