#!/bin/bash
# Issue #28, seventeenth session, fourth call: where an e4m3 k64 case goes now that the fp8 kernel runs 20 warps of 96
# registers (nm5, whose embedded cubin is main5.cubin = build/generated/resident_sm_90a.cubin of 258bd26): ncu of the
# first check launch, as ../2026-11-27h-h100/call4.sh profiled 16 warps of 128 (details4.txt, lines4.txt there), joined
# with the cubin's line info by ../2026-11-23d-phases/lines.py (details4.txt, lines4.txt here). Run from the
# repository root with gpu-carry11 carried (nm5/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm5/resident_benchmark.xz nm5/main5.cubin.xz && chmod +x nm5/resident_benchmark)
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/nm5/main5.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3
timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o /tmp/prof $G/nm5/resident_benchmark \
  --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma|^ord" /tmp/ncu.txt | cut -c1-120
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details4.txt 2>&1
grep -E "Issue Slots Busy|Theoretical Occ|Achieved Occ|Registers Per|Eligible Warps|Warp Cycles Per Issued|L1/TEX Hit|highest-utilized" $OUT/details4.txt | head -10
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 120 > $OUT/lines4.txt 2>&1; head -14 $OUT/lines4.txt
