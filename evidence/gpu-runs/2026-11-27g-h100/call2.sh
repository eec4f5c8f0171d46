#!/bin/bash
# Issue #28, fourteenth session, second call (an H100): why the scheduler's warps must keep together (call1: every
# smaller barrier group was slower). Warp stall reasons (ncu WarpStateStats, raw metrics) of nb's first check launch
# for m16n8k32 bf16 and m16n8k16 f16->f32, with the barrier (float, the default) and without (off). Run from the
# repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
i=0
for f in ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16 ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16; do
  for barrier in float off; do
    i=$((i+1))
    timeout 150 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section WarpStateStats \
      --section SchedulerStats --section InstructionStats -o /tmp/prof$i $G/nb/resident_benchmark \
      --form "$f" --host-cases 0 --seconds 0.05 --phase-barrier $barrier > /tmp/ncu$i.txt 2>&1
    echo "== $f, --phase-barrier $barrier: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu$i.txt | cut -c1-100
    ncu -i /tmp/prof$i.ncu-rep --page raw --csv 2>/dev/null > /tmp/raw$i.csv
    python3 - /tmp/raw$i.csv <<'PY' | tee $OUT/stalls2-$i.txt
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, units, values = rows[0], rows[1], rows[2]
stalls = [(n, float(v.replace(',', ''))) for n, v in zip(names, values)
          if n.startswith('smsp__average_warp_latency_issue_stalled_') and n.endswith('.ratio') or
             n.startswith('smsp__average_warps_issue_stalled_') and n.endswith('_per_issue_active.ratio')]
total = sum(v for _, v in stalls)
for n, v in sorted(stalls, key=lambda x: -x[1])[:14]:
    print(f"{n:80s} {v:8.3f} {100 * v / total if total else 0:5.1f}%")
for n, v in zip(names, values):
    if n in ('smsp__issue_active.avg.pct_of_peak_sustained_active', 'smsp__warps_active.avg.per_cycle_active',
             'smsp__warps_eligible.avg.per_cycle_active', 'smsp__inst_executed.sum', 'sm__cycles_elapsed.avg'):
        print(n, v)
PY
  done
done
