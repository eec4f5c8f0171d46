#!/bin/bash
# Issue #28, fifteenth session, eighth call (an H100; run in the sixteenth session's first call): the run's
# clock record (harness/clock_watch.h, run.json run.clocks, the line under the GPU in summary.md) on the GPU: nc
# (c44ba81's mmasp, main's at 04b22a3) runs mmasp run --budget 30 as a new user runs it while nvidia-smi samples the same GPU every second
# (clocks8.csv), so that the record's mean clock and slowed samples can be compared with nvidia-smi's. Run from the
# repository root with gpu-carry11 carried. Then mmasp screen --budget 20, whose verdict records the clock too.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nc/mmasp.xz && chmod +x nc/*)
exec > >(tee -a "$OUT/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv
nvidia-smi --query-gpu=timestamp,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv -l 1 > $OUT/clocks8.csv 2>&1 &
monitor=$!
W=/tmp/b-nc && rm -rf $W && mkdir -p $W && cd $W
timeout 60 $G/nc/mmasp run --backend gpu --modules $G/modules --budget 30 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nc: mmasp run --budget 30: exit $?"
kill $monitor
cp r/summary.md $OUT/budget30-nc-summary8.md
grep -E "SM clock|fewest|GPU-resident path:" r/summary.md | head -4
python3 -c "import json; print('run.clocks:', json.load(open('r/run.json'))['run'].get('clocks'))"
awk -F', ' 'NR>1 {n++; c+=$2; if ($2+0 < 1900) low++} END {printf "nvidia-smi: SM clock samples %d, mean %.0f MHz, below 1900 MHz in %d\n", n, c/n, low}' $OUT/clocks8.csv
cd $W
timeout 60 $G/nc/mmasp screen --devices 0 --budget 20 --out s > s.log 2>&1
echo "nc: mmasp screen --budget 20: exit $?"; tail -2 s.log
python3 -c "import json; print('screen clocks:', json.load(open('s/gpu0.json')).get('clocks'))"
cp s/gpu0.json $OUT/screen8-gpu0.json
