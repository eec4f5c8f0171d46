#!/bin/bash
# Issue #28, fifteenth session, fourth call (an H100): where an e4m3 k64 case's instructions and stalls go (main's
# kernels: nf's resident_benchmark, whose embedded cubin is main.cubin, build/generated/resident_sm_90a.cubin of
# 3d6d862): ncu source counters of the first check launch (2^20 cases; --launch-skip 3 as in ../2026-11-27g-h100/
# call9.sh), joined with the cubin's line info by ../2026-11-23d-phases/lines.py (details4.txt, lines4.txt). Then what
# occupancy is worth to the m16n8k32 float forms now that their arena is small (F): --max-warps 32, 28, 28, 32. Run
# from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nf/resident_benchmark.xz main.cubin.xz && chmod +x nf/*)
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/main.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3
timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o /tmp/prof $G/nf/resident_benchmark \
  --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma|^ord" /tmp/ncu.txt | cut -c1-120
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details4.txt 2>&1
grep -E "Issue Slots Busy|Theoretical Occ|Achieved Occ|Registers Per|highest-utilized" $OUT/details4.txt | head -6
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 120 > $OUT/lines4.txt 2>&1; head -14 $OUT/lines4.txt
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-32 p1-28 p2-28 p2-32; do
  s=$(date +%s)
  $G/nf/resident_benchmark --form m16n8k32.row.col.f --host-cases 0 --seconds 0.15 --max-warps ${pk#*-} > /tmp/t/table4-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table4-$pk.txt) not measured"
done
tar czf $OUT/tables4.tgz -C /tmp/t .
