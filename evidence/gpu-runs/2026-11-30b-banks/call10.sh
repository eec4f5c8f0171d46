#!/bin/bash
# Issue #28, thirty-second session, tenth call: the build of bd5fe6d (kFp8SharedCellWords derived from kResidentFp8Dims;
# every kernel's .text byte for byte call4.sh's, ResidentFrames) checked on the GPU before stopping: gpu_resident_test
# on the cubin, and mmasp selftest --faults --cases 300 --threads 16.
# From the repository root with gpu-carry21/j carried (all.tar.xz: gpu_resident_test and mmasp, stripped).
set -u
G=$PWD/gpu-carry21/j
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x gpu_resident_test mmasp) || exit 1
exec > >(tee -a "$OUT/call10.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test10-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test10-cubin.txt
s=$(date +%s)
timeout 180 $G/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest10.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/selftest10.txt
