#!/bin/bash
# Issue #28, tenth session, after measure5.sh, in one call: the checks of v5 (the build at this step) that must not
# change - a D bit flipped in 1 of 10^8 cases for 60 s (every struck case found) and mmasp selftest --faults on the
# GPU - and mmasp run --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu) with base (ca24c58)
# and v5. Run from the repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/mmasp.xz v5/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v5/*)
exec > >(tee -a "$OUT/checks.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
$G/v5/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
s=$(date +%s)
timeout 170 $G/v5/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
for k in base v5; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
