#!/bin/bash
# Issue #28, thirteenth session, third call (an H100): with this step's build (gpu-carry11/nb): mmasp selftest --faults
# on the GPU, gpu_execution_test (the watchdog test finds the binary by MMASP_BINARY), and the rare fault (one case in
# 10^8) in a 60 s run. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/*.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 150 $G/nb/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest3.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest3.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/nb/mmasp timeout 120 $G/nb/gpu_execution_test > $OUT/gpu_execution_test3.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test3.txt | head
timeout 100 $G/nb/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare3.txt 2>&1
echo "rare fault: exit $?"; tail -3 $OUT/rare3.txt
