#!/bin/bash
# Issue #28, twenty-second session, first call: where the fp8 kernel's and the lean kernel's (m16n8k16 f16->f32)
# cycles go. ncu's stall reasons (WarpStateStats, raw page), memory tables and per-opcode executed instructions
# (opcodes.py) of one verified launch each, main's build at 147cb0d (cur). Run from the repository root with
# gpu-carry13 carried (cur/resident_benchmark.xz, cur/resident_sm90a.cubin).
set -u
G=$PWD/gpu-carry13
E=$PWD/evidence/gpu-runs/2026-11-28g-stalls
(cd $G && xz -d -f -k cur/*.xz && chmod +x cur/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
for pair in "fp8 m16n8k64.row.col.f32.e4m3.e4m3.f32 regex:lean_fp8" "f16 m16n8k16.row.col.f32.f16.f16.f32 regex:^mmasp_resident_lean$"; do
  set -- $pair
  s=$(date +%s)
  timeout 200 ncu --clock-control none -k "$3" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis \
    -o /tmp/prof-$1 $G/cur/resident_benchmark --form "$2" --host-cases 0 --seconds 0.05 > /tmp/ncu-$1.txt 2>&1
  echo "== $1 $2: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|^mma|==PROF==|==ERROR==" /tmp/ncu-$1.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$1.ncu-rep --page details > $OUT/details-$1.txt 2>&1
  ncu -i /tmp/prof-$1.ncu-rep --page raw --csv > /tmp/raw-$1.csv 2>&1
  python3 - /tmp/raw-$1.csv > $OUT/stalls-$1.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, units, vals = rows[0], rows[1], rows[2]
for h, u, v in zip(head, units, vals):
    if ("stall" in h or "launch__" in h or "local" in h or "lsu" in h or "l1tex__data_pipe" in h or "wavefronts" in h) and v not in ("", "0"):
        print(f"{h:90s} {v:>20s} {u}")
PY
  grep -E "issue_stalled.*per_warp_active.pct|launch__grid|launch__block" $OUT/stalls-$1.txt | sort -t' ' -k2 | head -60
  ncu -i /tmp/prof-$1.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-$1.csv.gz
  python3 $E/opcodes.py /tmp/source-$1.csv.gz 1048576 45 > $OUT/opcodes-$1.txt 2>&1
  sed -n 2,30p $OUT/opcodes-$1.txt
done
