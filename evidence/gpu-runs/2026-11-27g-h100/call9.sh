#!/bin/bash
# Issue #28, fourteenth session, ninth call (an H100): where an m16n8k32 bf16 and an m16n8k32 f16->f16 case's instructions and stalls go with
# the kept change (81cd41d, the pair's tables a kernel parameter): ncu source counters of ne's first check launch (2^20 cases; --launch-skip 3 as in
# ../2026-11-27f-h100/call1.sh), joined with the cubin's line info by ../2026-11-23d-phases/lines.py, and the launch's
# issue, occupancy and pipe sections (details9-N.txt, lines9-N.txt). Run from the repository root with gpu-carry11
# carried (ne/resident_benchmark, ne.cubin: 81cd41d's build/generated/resident_sm_90a.cubin).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k ne/resident_benchmark.xz ne.cubin.xz && chmod +x ne/*)
exec > >(tee -a "$OUT/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/ne.cubin 2>&1 | gzip > /tmp/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16 ordered_metadata.sync.aligned.m16n8k32.row.col.f16; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o /tmp/prof$i $G/ne/resident_benchmark \
    --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu$i.txt | cut -c1-120
  k=$(ncu -i /tmp/prof$i.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
  ncu -i /tmp/prof$i.ncu-rep --page details > $OUT/details9-$i.txt 2>&1
  grep -E "Issue Slots Busy|Theoretical Occ|Achieved Occ|Registers Per|highest-utilized" $OUT/details9-$i.txt | head -6
  ncu -i /tmp/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source$i.csv.gz
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source$i.csv.gz /tmp/resident.sass.gz 1048576 $k 80 > $OUT/lines9-$i.txt 2>&1; head -12 $OUT/lines9-$i.txt
done
