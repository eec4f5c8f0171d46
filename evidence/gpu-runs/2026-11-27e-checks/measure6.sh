#!/bin/bash
# Issue #28, eleventh session, last call: mmasp run --budget 60 as a new user runs it (all defaults but --seed 1
# --backend gpu) with base (ee66ae5) and sp (the byte-permute spread in the dense kernels), one after the other.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/mmasp.xz sp/mmasp.xz; do xz -d -f -k "$f"; done; chmod +x base/* sp/*)
exec > >(tee -a "$OUT/measure6.log") 2>&1
for k in base sp; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  timeout 80 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
