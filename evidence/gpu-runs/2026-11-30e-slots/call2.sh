#!/bin/bash
# Issue #28, thirty-fifth session, second call: the fp8 kernel with B's f32 words in two planes of halves (planar:
# pass 1 loads 8 bytes of low halves a lane, pass 2 and the special pass 8 of high halves, where each loaded 16 bytes
# of whole words) against bf3c2b1's (hd, its code byte for byte), both as fp8-only cubins in bf3c2b1's
# resident_benchmark (rb: its dump check compares 64 cases of each form with the host's), hd planar planar hd; then
# ncu's L1 metrics (call1.sh's) of planar for e4m3.e4m3.
# From the repository root with gpu-carry24/p (all.tar.xz: rb) and gpu-carry24/q (the cubins) carried.
set -u
G=$PWD/gpu-carry24/p
Q=$PWD/gpu-carry24/q
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t2 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $Q/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 head35; run 1 planar; run 2 planar; run 2 head35
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,sm__cycles_elapsed.avg
for v in planar head35; do
  timeout 100 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --metrics $M \
    $G/rb --image-file $Q/$v.cubin --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > $T/metrics2-$v.txt 2>&1
  echo "== ncu metrics $v: exit $?"
done
tar czf $OUT/call2.tgz -C $T .
