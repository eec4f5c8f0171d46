#!/bin/bash
# Issue #28, fifteenth session, seventh call (an H100): is call5's and call6's slower mmasp run --budget 60 (every
# pair's kernel rate about 0.70 of the fourteenth session's, integer pairs as much as float ones, while one form timed
# cool at the start of call6 ran at its usual rate) the GPU's clock? The GPU's SM clock, temperature, power and clock
# event reasons every second during the same run (clocks7.csv). Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm/mmasp.xz && chmod +x nm/*)
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv
nvidia-smi --query-gpu=timestamp,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv -l 1 > $OUT/clocks7.csv 2>&1 &
monitor=$!
W=/tmp/b-nm && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s.%N)
timeout 80 $G/nm/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
kill $monitor
cp r/summary.md $OUT/budget60-nm-summary7.md
grep -E "time by phase|fewest|GPU-resident path:" r/summary.md | head -4
awk -F', ' 'NR>1 {n++; c+=$2; if ($2+0 < 1900) low++} END {printf "SM clock samples %d, mean %.0f MHz, below 1900 MHz in %d\n", n, c/n, low}' $OUT/clocks7.csv
