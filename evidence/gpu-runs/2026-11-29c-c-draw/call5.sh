#!/bin/bash
# Issue #28, twenty-fifth session, fifth call: where the m16n8k16 f16 kernel (f16->f32) spends
# its cycles after this round, for the next: ncu's stall reasons (WarpStateStats, the raw page), per-opcode
# executed instructions (../2026-11-28g-stalls/opcodes.py) and source-line counts (../2026-11-23d-phases/lines.py with
# nvdisasm's line table) of one verified launch. Run from the repository root with gpu-carry15 carried
# (nw/resident_benchmark.xz, v/nw.cubin.xz: nw's cubin; nw = this round's build).
set -u
G=$PWD/gpu-carry15
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -f -k nw/resident_benchmark.xz v/nw.cubin.xz && chmod +x nw/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
nvdisasm -g -c $G/v/nw.cubin 2>&1 | gzip > /tmp/resident.sass.gz
for pair in "k16f16 m16n8k16.row.col.f32.f16.f16.f32 lean_k16_f16 mmasp_resident_lean_k16_f16"; do
  set -- $pair
  s=$(date +%s)
  timeout 200 ncu --clock-control none -k "regex:$3" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    -o /tmp/prof-$1 $G/nw/resident_benchmark --form "$2" --host-cases 0 --seconds 0.05 > /tmp/ncu-$1.txt 2>&1
  echo "== $1 $2: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$1.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$1.ncu-rep --page details > $OUT/details5-$1.txt 2>&1
  ncu -i /tmp/prof-$1.ncu-rep --page raw --csv > /tmp/raw-$1.csv 2>&1
  python3 - /tmp/raw-$1.csv > $OUT/stalls5-$1.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, units, vals = rows[0], rows[1], rows[2]
for h, u, v in zip(head, units, vals):
    if ("stall" in h or "launch__" in h or "issue" in h or "warps_eligible" in h or "warps_active" in h) and v not in ("", "0"):
        print(f"{h:90s} {v:>20s} {u}")
PY
  grep -E "per_issue_active.ratio" $OUT/stalls5-$1.txt | sort -k2 -g -r | head -12
  ncu -i /tmp/prof-$1.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-$1.csv.gz
  python3 $E/2026-11-28g-stalls/opcodes.py /tmp/source-$1.csv.gz 1048576 45 > $OUT/opcodes5-$1.txt 2>&1
  python3 $E/2026-11-23d-phases/lines.py /tmp/source-$1.csv.gz /tmp/resident.sass.gz 1048576 $4 200 > $OUT/lines5-$1.txt 2>&1
  head -14 $OUT/lines5-$1.txt
done
