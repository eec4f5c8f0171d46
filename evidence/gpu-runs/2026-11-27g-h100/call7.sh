#!/bin/bash
# Issue #28, fourteenth session, seventh call (an H100): mmasp run --budget 60 as a new user runs it (all defaults but
# --seed 1 --backend gpu) with nb (06f14a8's mmasp: 9571a4e's kernels) and ne (this step's build),
# one after the other. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/mmasp.xz ne/mmasp.xz && chmod +x nb/mmasp ne/mmasp)
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in nb ne; do
  b=$G/$k/mmasp
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  timeout 80 $b run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary7.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
