#!/bin/bash
# Where the lean kernel's time goes at 008e8ba (issue #28): ncu on the check launch of 2^20 cases for four forms
# (pipe utilisation, scheduler and warp-state statistics, instruction mix; source counters for f16->f32), the
# cubin's SASS with line info for lines.py. Run from the repository root with gpu-carry4/ carried.
set -u
G=$PWD/gpu-carry4
E=$PWD/evidence/gpu-runs/2026-11-26-resident-speed
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
which ncu; ncu --version | tail -1
f16="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
i=0
for f in "$f16" "sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" \
         "sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4" "sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16"; do
  i=$((i+1))
  extra=""; [ $i = 1 ] && extra="--section SourceCounters"
  timeout 150 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section ComputeWorkloadAnalysis \
    --section SchedulerStats --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy \
    --section SpeedOfLight $extra -o $OUT/prof$i $G/resident_benchmark_base --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "^(form|mma)" $OUT/ncu$i.txt | cut -c1-140
  ncu -i $OUT/prof$i.ncu-rep --page details > $OUT/details$i.txt 2>&1
  grep -E "Executed Ipc|Issue Slots Busy|SM Busy|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Executed Instructions |Registers Per|Achieved Occupancy|Theoretical Occ|Block Size|Grid Size|Duration|Compute \(SM\)|Memory Throughput" $OUT/details$i.txt
  ncu -i $OUT/prof$i.ncu-rep --page raw --csv 2>/dev/null | gzip > $OUT/raw$i.csv.gz
  [ $i = 1 ] && ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source1.csv.gz
  rm -f $OUT/prof$i.ncu-rep
done
nvdisasm -g -c $G/resident_base.cubin 2>&1 | gzip > $OUT/resident.sass.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py $OUT/source1.csv.gz $OUT/resident.sass.gz 1048576 > $OUT/lines1.txt 2>&1; head -45 $OUT/lines1.txt
