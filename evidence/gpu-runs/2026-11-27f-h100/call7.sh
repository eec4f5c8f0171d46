#!/bin/bash
# Issue #28, twelfth session, seventh call (an H100): mmasp run --budget 60 as a new user runs it (all defaults but
# --seed 1 --backend gpu) with sp (412c326's build) and oc (the narrow words over the codes), one after the other;
# then where an fp8 case's instructions go now (ncu source counters of oc's first check launch, as call1.sh).
set -u
G=$PWD/gpu-carry10
(cd $G && for f in sp/*.xz oc/*.xz oc.cubin.xz; do xz -d -f -k "$f"; done; chmod +x sp/* oc/*)
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in sp oc; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  timeout 80 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary7.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
nvdisasm -g -c $G/oc.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3
timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o /tmp/prof $G/oc/resident_benchmark \
  --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu.txt | cut -c1-120
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details7.txt 2>&1
grep -E "Grid Size|Block Size|Executed Ipc A|Issue Slots Busy|Theoretical Occ|L1/TEX Hit|Shared Memory Configuration" $OUT/details7.txt | head -8
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 80 > $OUT/lines7.txt 2>&1; head -12 $OUT/lines7.txt
