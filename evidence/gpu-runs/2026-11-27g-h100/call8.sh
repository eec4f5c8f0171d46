#!/bin/bash
# Issue #28, fourteenth session, eighth call (an H100): ne's first check launch under ncu, for m16n8k32 bf16 and
# e4m3 k64 (as call2 measured nb's bf16): warp stall reasons (raw metrics), local-memory spill requests and the L1 hit
# rate (MemoryWorkloadAnalysis), issue and occupancy. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k ne/resident_benchmark.xz && chmod +x ne/*)
exec > >(tee -a "$OUT/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
i=0
for f in ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16 ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3; do
  i=$((i+1))
  timeout 150 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis --section Occupancy \
    -o /tmp/prof$i $G/ne/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu$i.txt | cut -c1-100
  ncu -i /tmp/prof$i.ncu-rep --page details > $OUT/details8-$i.txt 2>&1
  grep -E "Local Memory Spilling Requests  |L1/TEX Hit Rate|Issue Slots Busy|Eligible Warps" $OUT/details8-$i.txt | head -5
  ncu -i /tmp/prof$i.ncu-rep --page raw --csv 2>/dev/null > /tmp/raw$i.csv
  python3 - /tmp/raw$i.csv <<'PY' | tee $OUT/stalls8-$i.txt
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, values = rows[0], rows[2]
stalls = [(n, float(v.replace(',', ''))) for n, v in zip(names, values)
          if n.startswith('smsp__average_warps_issue_stalled_') and n.endswith('_per_issue_active.ratio')]
total = sum(v for _, v in stalls)
for n, v in sorted(stalls, key=lambda x: -x[1])[:10]:
    print(f"{n:80s} {v:8.3f} {100 * v / total if total else 0:5.1f}%")
for n, v in zip(names, values):
    if n in ('smsp__issue_active.avg.pct_of_peak_sustained_active', 'smsp__warps_eligible.avg.per_cycle_active', 'smsp__inst_executed.sum'):
        print(n, v)
PY
done
