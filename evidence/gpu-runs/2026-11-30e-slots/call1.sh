#!/bin/bash
# Issue #28, thirty-fifth session, first call, on the build of bf3c2b1: where the fp8 kernel's L1 traffic comes from.
# ncu on mmasp_resident_lean_fp8 for m16n8k64 e4m3.e4m3 (matched slot tables, 20 KB) and e4m3.e5m2 (mixed, 40 KB):
# (1) the memory workload sections (shared wavefronts, bank conflicts, global requests, sectors, hit rate);
# (2) the L1 data-pipe wavefronts by kind, as raw metrics. One tgz back.
# From the repository root with gpu-carry24/p carried (all.tar.xz: rb).
set -u
G=$PWD/gpu-carry24/p
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t1 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum
for f in e4m3.e4m3 e4m3.e5m2; do
  s=$(date +%s)
  timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section MemoryWorkloadAnalysis_Chart --print-details all \
    $G/rb --form m16n8k64.row.col.f32.$f.f32 --host-cases 0 --seconds 0.05 > $T/mwa1-$f.txt 2>&1
  echo "== ncu sections $f: exit $? in $(( $(date +%s) - s )) s"
  s=$(date +%s)
  timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --metrics $M \
    $G/rb --form m16n8k64.row.col.f32.$f.f32 --host-cases 0 --seconds 0.05 > $T/metrics1-$f.txt 2>&1
  echo "== ncu metrics $f: exit $? in $(( $(date +%s) - s )) s"
  grep -E "ERROR|verified|^mma" $T/metrics1-$f.txt | cut -c1-200 | head -5
done
tar czf $OUT/call1.tgz -C $T .
