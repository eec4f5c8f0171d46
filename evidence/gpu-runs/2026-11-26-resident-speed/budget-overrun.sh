#!/bin/bash
# The budget plan reserving the mean overrun of the random suites so far for every pair still to come (pair_runner.cpp):
# mmasp run --budget 60 as a new user runs it, on one H100, with the kernel of final.sh.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_resident_test mmasp)
exec > >(tee -a "$OUT/budget-overrun.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s); $G/mmasp compile > compile.log 2>&1; echo "warm-up compile: exit $? in $(( $(date +%s) - s )) s"
for round in 1 2; do
  s=$(date +%s.%N)
  $G/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r$round > r$round.log 2>&1
  echo "mmasp run --budget 60 (round $round): exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r$round/run.json $OUT/budget60-overrun-r$round-run.json
  grep -E "fewest|GPU-resident path:" r$round/summary.md | head -3
done
