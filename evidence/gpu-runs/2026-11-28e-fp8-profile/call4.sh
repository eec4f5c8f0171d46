#!/bin/bash
# Issue #28, twentieth session, fourth call: nf = main's build at 0c327f6 (vC's source: the fp8 judge's C by one f32
# addition, its code tables looked up whole; its cubin's kernels are vC's, by their .text SHA-256). The eight fp8 forms
# ngi, nf, nf, ngi; with nf every gpu_resident_test case (cubin and both PTX images), gpu_execution_test, and the rare
# fault (1 in 10^8, 60 s); last, call1's ncu source-line profile again with nf. Run from the repository root with
# gpu-carry12 carried (ngi/resident_benchmark, nf/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ngi/resident_benchmark.xz nf/*.xz && chmod +x ngi/* nf/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t /tmp/o && mkdir -p /tmp/t /tmp/o
for pk in e1-ngi e1-nf e2-nf e2-ngi; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t/table4-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table4-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table4-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables4.tgz -C /tmp/t .
s=$(date +%s)
timeout 300 $G/nf/gpu_resident_test > /tmp/o/gpu_resident_test4.txt 2>&1
echo "gpu_resident_test (every case, nf): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o/gpu_resident_test4.txt
s=$(date +%s)
MMASP_BINARY=$G/nf/mmasp timeout 60 $G/nf/gpu_execution_test > /tmp/o/gpu_execution_test4.txt 2>&1
echo "gpu_execution_test (nf): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/o/gpu_execution_test4.txt
s=$(date +%s)
timeout 100 $G/nf/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o/rare4.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o/rare4.txt
tar czf $OUT/outputs4.tgz -C /tmp/o .
nvdisasm -g -c $G/nf/resident_sm90a.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=m16n8k64.row.col.f32.e4m3.e4m3.f32
s=$(date +%s)
timeout 200 ncu --clock-control none -k regex:lean_fp8 --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats \
  --section ComputeWorkloadAnalysis -o /tmp/prof $G/nf/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|^mma" /tmp/ncu.txt | cut -c1-160
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details4.txt 2>&1
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 200 > $OUT/lines4.txt 2>&1
head -12 $OUT/lines4.txt
