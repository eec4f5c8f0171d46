#!/bin/bash
# Issue #28, twenty-first session, fourth call: call3 again after a 5-second warm-up run (discarded), because the
# first mmasp run on a fresh machine spends about 4 s more in compile conformance (call3: 4.60 s against 0.16 s;
# the twentieth session's call5: 4.04 against 0.13), which the second run gives to the random suites. Then base and
# nw2, --budget 60 --seed 1, both warm. Run from the repository root with gpu-carry13 carried (base/mmasp, nw2/mmasp,
# modules/).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k base/mmasp.xz nw2/mmasp.xz && chmod +x base/* nw2/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/o4 && mkdir -p /tmp/o4
R=$PWD
W=/tmp/b-warm && rm -rf $W && mkdir -p $W && cd $W
timeout 30 $G/base/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "warm-up: exit $?; $(grep -o 'compile conformance [0-9.]* s' r/summary.md)"
cd $R
for k in base nw2; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md /tmp/o4/budget60-$k-summary4.md; cp r/run.json /tmp/o4/budget60-$k-run4.json
  grep -E "SM clock while|fewest|GPU-resident path:|time by phase" r/summary.md | head -5
  cd $R
done
cp /tmp/o4/* $OUT/
