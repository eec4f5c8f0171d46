#!/bin/bash
# Issue #28, closing measurements of this session's final kernel (s6: step5's drawing, one SplitMix output per round,
# the sampler class as one record) beside 4cce479's (base) on one H100 in one call: every sm_90 form (selector 0), one
# table after the other; gpu_resident_test; a D bit flipped in 1 of 10^8 cases for 60 s; mmasp run --budget 60 as a
# new user runs it (all defaults but --seed 1 --backend gpu); gpu_execution_test; mmasp selftest --faults. Run from the
# repository root with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s6/*.xz; do xz -d -f $f; done; chmod +x resident_benchmark_base s6/*)
exec > >(tee -a "$OUT/final-e.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in resident_benchmark_base s6/resident_benchmark; do
  name=before; [ $b = s6/resident_benchmark ] && name=after
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-final6-$name.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s); timeout 200 $G/s6/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
$G/s6/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s.%N)
$G/s6/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "s6: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
cp r/run.json $OUT/budget60-final6-run.json; cp r/summary.md $OUT/budget60-final6-summary.md
grep -E "fewest|GPU-resident path:|float pair\(s\) got" r/summary.md | head -4
cd $G/..
export MMASP_BINARY=$G/s6/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 150 $G/s6/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 200 $G/s6/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest-final6.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest-final6.txt | tail -2
