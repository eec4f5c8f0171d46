#!/bin/bash
# Issue #28, closing measurements on one H100 in one call, the kernel before (008e8ba) and after (this commit: tagged
# integer judge, unrolled one-block narrow element, drawing by compile-time widths, padded narrow A rows, packing by
# whole words): six forms alternated; every sm_90 form (selector 0), one table after the other; the GPU resident test;
# a D bit flipped in 1 of 10^8 cases for 60 s; ncu pipe utilisation of the check and judge-only launches of m16n8k16
# f16->f32; mmasp run --budget 60 as a new user runs it.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_resident_test mmasp)
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
for b in resident_benchmark_base resident_benchmark; do
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-$b.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s); timeout 150 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
$G/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
f16="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
m=smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_active.avg.per_cycle_active
for skip in 2 6; do
  echo "== ncu, lean launch $skip (2: check of 2^20 cases; 6: judge only)"
  timeout 100 ncu --clock-control none -k regex:lean --launch-skip $skip --launch-count 1 --metrics $m $G/resident_benchmark --form "$f16" --host-cases 0 --seconds 0.05 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)"
done
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s); $G/mmasp compile > compile.log 2>&1; echo "warm-up compile: exit $? in $(( $(date +%s) - s )) s"
s=$(date +%s.%N)
$G/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out after > after.log 2>&1
echo "mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
tail -3 after.log; cp after/run.json $OUT/budget60-run.json; cp after/summary.md $OUT/budget60-summary.md
grep -E "fewest|GPU-resident path:" after/summary.md | head -5
