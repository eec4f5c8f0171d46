#!/bin/bash
# Issue #28, closing checks on one H100 in one call: mmasp run --budget 60 as a new user runs it (all defaults but
# --seed 1 --backend gpu) with 4cce479 (base) and with this session's mmasp (s4), one after the other; then, with s4,
# gpu_execution_test and mmasp selftest --faults. Run from the repository root with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in base/mmasp.xz s4/mmasp.xz s4/gpu_execution_test.xz; do xz -d -f $f; done; chmod +x base/mmasp s4/*)
exec > >(tee -a "$OUT/final-b.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
for who in base s4; do
  m=$G/s4/../modules; [ $who = base ] && m=$G/base/modules
  s=$(date +%s.%N)
  $G/$who/mmasp run --backend gpu --modules $m --budget 60 --seed 1 --findings $G/../findings/findings.json --out r-$who > r-$who.log 2>&1
  echo "$who: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r-$who/run.json $OUT/budget60-$who-run.json; cp r-$who/summary.md $OUT/budget60-$who-summary.md
  grep -E "fewest|GPU-resident path:" r-$who/summary.md | head -4
done
cd $G/..
export MMASP_BINARY=$G/s4/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 150 $G/s4/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 300 $G/s4/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|missed|MISSED|unseeable|^mmasp selftest" $OUT/selftest.txt | tail -4
