#!/bin/bash
# Does the lean kernel's register cap cost time? ptxas -v: at __launch_bounds__(1024, 1) the lean kernel gets 64
# registers and spills (836 bytes stored, 848 loaded); at (768, 1) 80 registers, still spilling (596/612). Here: how many
# local-memory instructions a case executes (ncu, 1,024-thread kernel), and the six forms with 1,024-thread blocks
# (resident_benchmark) against 768 (resident_benchmark_768, a build with kLeanThreads = 768), alternated. One H100.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in resident_benchmark.xz resident_benchmark_768.xz; do xz -d -f $f; done && chmod +x resident_benchmark*)
exec > >(tee -a "$OUT/registers.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
m=smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_local_st.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" \
         "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  echo "== ncu $f (check launch of 2^20 cases)"
  timeout 100 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --metrics $m $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 2>&1 | grep -E "^\s+smsp"
done
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32" "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" \
         "ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark resident_benchmark_768; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
