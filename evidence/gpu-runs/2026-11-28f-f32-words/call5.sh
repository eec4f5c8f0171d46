#!/bin/bash
# Issue #28, twenty-first session, fifth call: the twentieth session's ncu source-line profile of an fp8 case
# (../2026-11-28e-fp8-profile/call4.sh's last part) with nb = main's build at b566531 (its fp8 kernel's .text is nw2's:
# ResidentFrames), so that the parts of a case after this round can be counted (lines5.txt, parts.py).
# Run from the repository root with gpu-carry13 carried (nb/resident_benchmark, nb/resident_sm90a.cubin).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nb/*.xz && chmod +x nb/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
nvdisasm -g -c $G/nb/resident_sm90a.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=m16n8k64.row.col.f32.e4m3.e4m3.f32
s=$(date +%s)
timeout 200 ncu --clock-control none -k regex:lean_fp8 --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats \
  --section ComputeWorkloadAnalysis -o /tmp/prof $G/nb/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|^mma" /tmp/ncu.txt | cut -c1-160
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details5.txt 2>&1
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 200 > $OUT/lines5.txt 2>&1
head -12 $OUT/lines5.txt
