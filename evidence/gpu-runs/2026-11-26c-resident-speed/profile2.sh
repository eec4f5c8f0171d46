#!/bin/bash
# Issue #28, third round: where the kernel of f8f1a47 (s6) spends a case, per form family — per source line (ncu
# source counters joined with the cubin's SASS line info by lines.py), warp stall reasons, pipe use and shared-memory
# bank conflicts — for the check launch and the draw-only launch. Run from the repository root with gpu-carry7/.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k resident_benchmark_s6.xz && xz -d -f -k resident.cubin.xz && chmod +x resident_benchmark_s6)
exec > >(tee -a "$OUT/profile2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/resident.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.u8" \
         "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3"; do
  for launch in 2 4; do   # 2: the first check launch; 4: the draw-only launch (2^20 cases each at --seconds 0.001)
    i=$((i+1))
    timeout 200 ncu --clock-control none -k regex:lean --launch-skip $launch --launch-count 1 --section SourceCounters \
      --section InstructionStats --section LaunchStats --section Occupancy --section WarpStateStats \
      --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
      -o $OUT/prof$i $G/resident_benchmark_s6 --form "$f" --host-cases 0 --seconds 0.001 > $OUT/ncu$i.txt 2>&1
    echo "== $f launch $launch: ncu exit $?"; grep -E "^(form|mma)" $OUT/ncu$i.txt | cut -c1-140
    ncu -i $OUT/prof$i.ncu-rep --page details > $OUT/details$i.txt 2>&1
    k=$(grep -o -m1 "mmasp_resident_lean[a-z0-9_]*" $OUT/details$i.txt)
    grep -E "mmasp_resident|Executed Instructions |Grid Size|Block Size|Duration|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Achieved Occupancy|Theoretical Occupancy|Bank Conflicts|Stall|Pipe" $OUT/details$i.txt | head -60
    ncu -i $OUT/prof$i.ncu-rep --page raw --csv 2>&1 | gzip > $OUT/raw$i.csv.gz
    ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
    rm -f $OUT/prof$i.ncu-rep
    python3 $G/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k > $OUT/lines$i.txt 2>&1; head -45 $OUT/lines$i.txt
  done
done
