#!/bin/bash
# Issue #28, fourth round: why m16n8k16 bf16->f32 verifies 10 % fewer cases/s with s10 than with s9 while its
# drawn/s and judged/s are unchanged (bf16-alternate.log) — ncu on the first check launch (2^20 cases) of each.
# Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s9/resident_benchmark.xz s10/resident_benchmark.xz; do xz -d -f -k $f; done; chmod +x s9/* s10/*)
exec > >(tee -a "$OUT/profile-bf16.log") 2>&1
for k in s9 s10; do
  for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16 ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16; do
    timeout 200 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section InstructionStats \
      --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats \
      --section MemoryWorkloadAnalysis_Tables --section MemoryWorkloadAnalysis -o $OUT/p-$k $G/$k/resident_benchmark --form $f \
      --host-cases 0 --seconds 0.001 > /dev/null 2>&1
    echo "== $k $f: ncu exit $?"
    ncu -i $OUT/p-$k.ncu-rep --page details > $OUT/details-$k-${f##*.}.txt 2>&1; rm -f $OUT/p-$k.ncu-rep
    grep -E "mmasp_resident|Executed Instructions |Block Size|Duration|Issue Slots Busy|Warp Cycles Per Issued|Achieved Occupancy|Bank Conflicts|Stall|L1/TEX Hit|L2 Hit|Registers Per|Dynamic Shared" $OUT/details-$k-${f##*.}.txt | head -40
  done
done
