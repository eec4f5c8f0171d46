#!/bin/bash
# Issue #28, twenty-second session, fourth call: the checks for nc (the cancellation profile's C by rows, main's
# working tree after 147cb0d, this session's build): every gpu_resident_test case, gpu_execution_test, mmasp selftest
# --faults on the GPU (the general kernel's code changed too), the rare fault (1 case in 10^8, 60 s), then a 5-second
# warm-up run (discarded) and mmasp run --budget 60 --seed 1. Run from the repository root with gpu-carry13 carried
# (nc/*.xz, modules/).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nc/*.xz && chmod +x nc/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/o4 && mkdir -p /tmp/o4
s=$(date +%s)
timeout 300 $G/nc/gpu_resident_test > /tmp/o4/gpu_resident_test4.txt 2>&1
echo "gpu_resident_test (every case, nc): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o4/gpu_resident_test4.txt
s=$(date +%s)
MMASP_BINARY=$G/nc/mmasp timeout 60 $G/nc/gpu_execution_test > /tmp/o4/gpu_execution_test4.txt 2>&1
echo "gpu_execution_test (nc): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/o4/gpu_execution_test4.txt
s=$(date +%s)
timeout 150 $G/nc/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o4/selftest4.txt 2>&1
echo "selftest --faults (nc): exit $? in $(( $(date +%s) - s )) s"; tail -4 /tmp/o4/selftest4.txt
s=$(date +%s)
timeout 100 $G/nc/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o4/rare4.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o4/rare4.txt
R=$PWD
W=/tmp/b-warm && rm -rf $W && mkdir -p $W && cd $W
timeout 30 $G/nc/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "warm-up: exit $?; $(grep -o 'compile conformance [0-9.]* s' r/summary.md)"
W=/tmp/b-nc && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 90 $G/nc/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "nc: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md /tmp/o4/budget60-nc-summary4.md; cp r/run.json /tmp/o4/budget60-nc-run4.json
grep -E "SM clock while|fewest|GPU-resident path:|time by phase" r/summary.md | head -5
cd $R
cp /tmp/o4/* $OUT/
