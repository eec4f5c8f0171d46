#!/bin/bash
# Issue #28, twenty-fifth session, third call: the checks of the round as built (nw = this session's build, vE's
# code: four draws a lane in the kernels of one shape, unrolled packing in the k16 and f16 kernels, class_entry):
# gpu_resident_test (every case: the cubin and the PTX image, device cases against host cases for every pair),
# gpu_execution_test, mmasp selftest --faults on the GPU. From the repository root with gpu-carry15 carried
# (nw/{gpu_resident_test,gpu_execution_test,mmasp}.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k nw/*.xz && chmod +x nw/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 420 $G/nw/gpu_resident_test > $OUT/gpu_resident_test3.txt 2>&1
echo "gpu_resident_test (every case, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test3.txt
s=$(date +%s)
MMASP_BINARY=$G/nw/mmasp timeout 60 $G/nw/gpu_execution_test > $OUT/gpu_execution_test3.txt 2>&1
echo "gpu_execution_test (nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test3.txt
s=$(date +%s)
timeout 130 $G/nw/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest3.txt 2>&1
echo "selftest --faults (nw): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest3.txt
