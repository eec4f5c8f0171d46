#!/bin/bash
# Issue #28 on one H100: mmasp run --budget 60 before (80fa620) and after (the budget plan), one after the other, seed 1.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/budget.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
# Both runs from a warm ptxas cache: compile conformance once before them.
s=$(date +%s); $G/mmasp compile > compile.log 2>&1; echo "warm-up compile: exit $? in $(( $(date +%s) - s )) s"
for build in mmasp_base mmasp; do
  s=$(date +%s.%N)
  $G/$build run --backend gpu --modules $G/modules --budget 60 --seed 1 --out $build > $build.log 2>&1
  echo "$build: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  tail -3 $build.log
  cp $build/run.json $OUT/$build-run.json; cp $build/summary.md $OUT/$build-summary.md
done
