#!/bin/bash
# Issue #28, eleventh session, second call: the watchdog test again with mmasp where the test looks for it
# (build/mmasp; the first call lacked it), mmasp run --budget 60 as a new user runs it (all defaults but --seed 1
# --backend gpu) with base (ca24c58) and cur (ee66ae5), and every form's resident rate with both.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/*.xz cur/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* cur/*)
exec > >(tee -a "$OUT/checks2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p build && cp $G/cur/mmasp build/mmasp
$G/cur/gpu_execution_test --gtest_filter='GpuWatchdog*' > $OUT/watchdog.txt 2>&1; echo "watchdog exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/watchdog.txt
for k in base cur; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
mkdir -p /tmp/t
for k in base cur; do $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > /tmp/t/all-$k.txt 2>&1; echo "$k bench exit $?"; done
tar czf $OUT/tables.tgz -C /tmp/t .   # kept here as checks2-tables.tgz
