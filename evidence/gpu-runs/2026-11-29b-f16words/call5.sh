#!/bin/bash
# Issue #28, twenty-fourth session, fifth call: mmasp run --budget 60 --seed 1 with cur (b06952e) and fx (this round)
# beside each other, each after a discarded 5-second warm-up run. From the repository root with gpu-carry15 carried
# (cur/mmasp.xz, fx/mmasp.xz, modules/: build/mmasp prepare --target sm_90a).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k cur/mmasp.xz fx/mmasp.xz && chmod +x cur/mmasp fx/mmasp) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
R=$PWD
for k in cur fx; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?; $(grep -o 'compile conformance [0-9.]* s' r/summary.md)"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary5.md; cp r/run.json $OUT/budget60-$k-run5.json
  grep -E "SM clock while|fewest|GPU-resident path:|time by phase" r/summary.md | head -5
  cd $R
done
