#!/bin/bash
# Issue #28, twenty-second session, third call: the cancellation profile's C by rows (nc: cancelled_c_row_of_values,
# four adjacent elements a lane, A's scratch rows padded) against main's build at 147cb0d (cur). The eight fp8 forms
# cur, nc, nc, cur, cur, nc; every form cur, nc, nc, cur; then ncu's stall reasons and opcodes for nc's fp8 kernel, as
# call1 took them for cur. Run from the repository root with gpu-carry13 carried.
set -u
G=$PWD/gpu-carry13
E=$PWD/evidence/gpu-runs/2026-11-28g-stalls
(cd $G && xz -d -f -k cur/*.xz nc/*.xz && chmod +x cur/resident_benchmark nc/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t3 && mkdir -p /tmp/t3
for pk in e1-cur e1-nc e2-nc e2-cur e3-cur e3-nc; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t3/fp8-$pk.txt 2>&1
  echo "fp8 $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/fp8-$pk.txt) not measured; $(grep 'SM clock' /tmp/t3/fp8-$pk.txt | cut -c1-70)"
done
for pk in all1-cur all1-nc all2-nc all2-cur; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t3/every-$pk.txt 2>&1
  echo "every $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/every-$pk.txt) not measured; $(grep 'SM clock' /tmp/t3/every-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables3.tgz -C /tmp/t3 .
f=m16n8k64.row.col.f32.e4m3.e4m3.f32
s=$(date +%s)
timeout 120 ncu --clock-control none -k regex:lean_fp8 --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats -o /tmp/prof3 $G/nc/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu3.txt 2>&1
echo "== ncu nc $f: exit $? in $(( $(date +%s) - s )) s"
ncu -i /tmp/prof3.ncu-rep --page details > $OUT/details3-fp8.txt 2>&1
ncu -i /tmp/prof3.ncu-rep --page raw --csv > /tmp/raw3.csv 2>&1
python3 - /tmp/raw3.csv > $OUT/stalls3-fp8.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
for h, u, v in zip(rows[0], rows[1], rows[2]):
    if "issue_stalled" in h and "per_issue_active.ratio" in h and v not in ("", "0"):
        print(f"{h:90s} {v:>20s} {u}")
PY
sort -k2 -n -r $OUT/stalls3-fp8.txt | head -8
ncu -i /tmp/prof3.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source3.csv.gz
python3 $E/opcodes.py /tmp/source3.csv.gz 1048576 45 > $OUT/opcodes3-fp8.txt 2>&1
sed -n 2,3p $OUT/opcodes3-fp8.txt; grep -E "DMUL|DADD|F2F|LDS |LDG " $OUT/opcodes3-fp8.txt
