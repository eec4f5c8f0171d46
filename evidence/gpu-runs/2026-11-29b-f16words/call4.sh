#!/bin/bash
# Issue #28, twenty-fourth session, fourth call: the checks for fx that need the mmasp binary: gpu_execution_test,
# mmasp selftest --faults on the GPU, the rare fault (1 case in 10^8, 60 s). From the repository root with gpu-carry15
# carried (fx/mmasp.xz, fx/resident_benchmark.xz, fx/gpu_execution_test.xz; mmasp run --budget 60 is call5.sh, the
# carry of both being over the run tool's 64 MiB with the tree).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k fx/*.xz && chmod +x fx/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
MMASP_BINARY=$G/fx/mmasp timeout 60 $G/fx/gpu_execution_test > $OUT/gpu_execution_test4.txt 2>&1
echo "gpu_execution_test (fx): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test4.txt
s=$(date +%s)
timeout 150 $G/fx/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest4.txt 2>&1
echo "selftest --faults (fx): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest4.txt
s=$(date +%s)
timeout 100 $G/fx/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare4.txt 2>&1
echo "rare fault (fx): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare4.txt
