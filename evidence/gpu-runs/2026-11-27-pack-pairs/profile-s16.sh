#!/bin/bash
# Issue #28, sixth round: why s16 (Mode::issue in a kernel of its own; smaller frames, almost no spills) verifies
# fewer cases than s12 (f25e4b3) — ncu on the first check launch (2^20 cases) of m16n8k16 f16->f32 and m16n8k32 u8
# with each: instructions executed, issue and stall figures. resident_benchmark launches issue, issue, check (2^20),
# check, draw, run, judge; s16's issue launches are not in a lean kernel, so its first check launch is the first lean
# one (skip 0), s12's the third (skip 2). Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s12/resident_benchmark.xz s16/resident_benchmark.xz; do xz -d -f -k $f; done; chmod +x s12/* s16/*)
exec > >(tee -a "$OUT/profile-s16.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s12 s16; do
  skip=2; [ $k = s16 ] && skip=0
  for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k32.row.col.s32.u8.u8; do
    timeout 200 ncu --clock-control none -k regex:lean --launch-skip $skip --launch-count 1 --section InstructionStats \
      --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats \
      --section MemoryWorkloadAnalysis_Tables -o $OUT/p-$k $G/$k/resident_benchmark --form $f \
      --host-cases 0 --seconds 0.001 > /dev/null 2>&1
    echo "== $k $f: ncu exit $?"
    ncu -i $OUT/p-$k.ncu-rep --page details > $OUT/details-$k-${f##*.}.txt 2>&1; rm -f $OUT/p-$k.ncu-rep
    grep -E "mmasp_resident|Executed Instructions |Duration|Issue Slots Busy|Warp Cycles Per Issued|Achieved Occupancy|Stall|Registers Per|Local" $OUT/details-$k-${f##*.}.txt | head -30
  done
done
