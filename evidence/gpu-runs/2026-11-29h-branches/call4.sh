#!/bin/bash
# Issue #28, thirtieth session, fourth call: mmasp run --backend gpu --budget 60 --seed 1 with HEAD's mmasp (hd:
# f919860's build) and then this round's (vC's kernels), each after a discarded 5 s warm-up, in one device session.
# From the repository root with gpu-carry19/g carried (all.tar.xz: mmasp-hd, mmasp-vC, stripped, and mmasp prepare
# --target sm_90a's modules; one solid xz).
set -u
G=$PWD/gpu-carry19/g
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x mmasp-hd mmasp-vC) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
R=$PWD
for k in hd vC; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary4.md; gzip -c r/run.json > $OUT/budget60-$k-run4.json.gz
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
