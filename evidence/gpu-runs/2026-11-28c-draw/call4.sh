#!/bin/bash
# Issue #28, eighteenth session, fourth call: with na (call3), a D bit flipped in 1 of 10^8 cases for 60 s, mmasp run
# --budget 60 --seed 1 as a new user runs it, then gpu_resident_test's PTX cases (both PTX images, JIT-compiled here).
# Run from the repository root with gpu-carry12 carried (na/, modules/ from `mmasp prepare --target sm_90a`).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k na/*.xz && chmod +x na/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 100 $G/na/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare4.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare4.txt
R=$PWD
W=/tmp/b-na && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 90 $G/na/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "na: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md $OUT/budget60-na-summary4.md; cp r/run.json $OUT/budget60-na-run4.json
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
cd $R
s=$(date +%s)
timeout 330 $G/na/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test4p.txt 2>&1
echo "gpu_resident_test (PTX cases, na): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|^\[  FAILED" $OUT/gpu_resident_test4p.txt
