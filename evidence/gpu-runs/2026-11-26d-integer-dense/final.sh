#!/bin/bash
# Issue #28, fourth round, closing measurements on one H100 in one call: every sm_90 form (selector 0) with s9 (the
# third round's kernel, 0bed3d3) and s10 (the dense integer judge, 9b20860), one table after the other; a D bit
# flipped in 1 of 10^8 cases for 60 s (s10); mmasp run --budget 60 as a new user runs it (all defaults but --seed 1
# --backend gpu) with s9 and s10; gpu_execution_test and mmasp selftest --faults (s10). Run from the repository root
# with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s9/*.xz s10/*.xz; do xz -d -f -k $f; done; chmod +x s9/* s10/*)
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s9 s10; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table-final-$k.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
$G/s10/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
for k in s9 s10; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/run.json $OUT/budget60-$k-run.json; cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
export MMASP_BINARY=$G/s10/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 100 $G/s10/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 150 $G/s10/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
