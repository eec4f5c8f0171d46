#!/bin/bash
# Issue #28, fourteenth session, fifth call (an H100): what must not change, with ne (call4's build): mmasp selftest
# --faults on the GPU, gpu_execution_test (MMASP_BINARY for its watchdog test), and a D bit flipped in 1 of 10^8
# cases for 60 s (resident_benchmark --rare-fault). Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k ne/resident_benchmark.xz ne/mmasp.xz ne/gpu_execution_test.xz && chmod +x ne/*)
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 200 $G/ne/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest5.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest5.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/ne/mmasp timeout 150 $G/ne/gpu_execution_test > $OUT/gpu_execution_test5.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test5.txt
s=$(date +%s)
timeout 120 $G/ne/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare5.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -3 $OUT/rare5.txt
