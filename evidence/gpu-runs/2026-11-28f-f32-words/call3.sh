#!/bin/bash
# Issue #28, twenty-first session, third call: mmasp run --backend gpu --budget 60 --seed 1 with base's mmasp (this
# session's build of c317ef3) and then nw2's (a16b633), one after the other on one H200, each with the modules
# `mmasp prepare --target sm_90a` wrote here. Run from the repository root with gpu-carry13 carried (base/mmasp,
# nw2/mmasp, modules/).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k base/mmasp.xz nw2/mmasp.xz && chmod +x base/* nw2/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/o3 && mkdir -p /tmp/o3
R=$PWD
for k in base nw2; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md /tmp/o3/budget60-$k-summary3.md; cp r/run.json /tmp/o3/budget60-$k-run3.json
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
  cd $R
done
cp /tmp/o3/* $OUT/
