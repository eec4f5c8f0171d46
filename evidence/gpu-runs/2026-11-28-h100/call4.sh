#!/bin/bash
# Issue #28, thirteenth session, fourth call (an H100): mmasp run --budget 60 as a new user runs it (all defaults but
# --seed 1 --backend gpu) with base (ec9d036's mmasp, gpu-carry11/rm: d1e2216's kernels) and nb (this step's build),
# one after the other. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k rm.xz nb/mmasp.xz && chmod +x rm nb/mmasp)
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in base nb; do
  case $k in base) b=$G/rm;; nb) b=$G/nb/mmasp;; esac
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  timeout 80 $b run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary4.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
