#!/bin/bash
# Issue #28, seventeenth session, seventh call: with nm6 (the fp8 kernel at 24 warps, kept after call6), a D bit
# flipped in 1 of 10^8 cases for 60 s, then mmasp run --budget 60 --seed 1 as a new user runs it. Run from the
# repository root with gpu-carry11 carried (nm6/, modules/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm6/mmasp.xz nm6/resident_benchmark.xz && chmod +x nm6/*)
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 100 $G/nm6/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare7.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare7.txt
W=/tmp/b-nm6 && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 80 $G/nm6/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm6: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md $OUT/budget60-nm6-summary7.md; cp r/run.json $OUT/budget60-nm6-run7.json
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
