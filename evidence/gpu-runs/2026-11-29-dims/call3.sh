#!/bin/bash
# Issue #28, twenty-third session, third call: the checks for fx (the kernels of one shape) that need the mmasp binary:
# mmasp selftest --faults on the GPU (every kernel's code moved), the rare fault (1 case in 10^8, 60 s), then
# mmasp run --budget 60 --seed 1 with cur (efd3af4) and fx beside each other, each after a discarded 5-second warm-up
# run. Run from the repository root with gpu-carry14 carried (cur/mmasp.xz, fx/mmasp.xz, fx/resident_benchmark.xz,
# modules/).
set -u
G=$PWD/gpu-carry14
(cd $G && xz -d -f -k cur/mmasp.xz fx/mmasp.xz fx/resident_benchmark.xz && chmod +x cur/mmasp fx/mmasp fx/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 150 $G/fx/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest3.txt 2>&1
echo "selftest --faults (fx): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest3.txt
s=$(date +%s)
timeout 100 $G/fx/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare3.txt 2>&1
echo "rare fault (fx): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare3.txt
R=$PWD
for k in cur fx; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?; $(grep -o 'compile conformance [0-9.]* s' r/summary.md)"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary3.md; cp r/run.json $OUT/budget60-$k-run3.json
  grep -E "SM clock while|fewest|GPU-resident path:|time by phase" r/summary.md | head -5
  cd $R
done
