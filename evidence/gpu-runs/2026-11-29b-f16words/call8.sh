#!/bin/bash
# Issue #28, twenty-fourth session, eighth call: the checks for dd (call7.sh's refactor, whose fp8 kernel's code
# moved): dd's gpu_resident_test on the cubin (every pair's dump against the host, 2^20 cases a pair, every catalogue
# fault, the kernels' refusals) and mmasp selftest --faults on the GPU. From the repository root with gpu-carry15
# carried (dd/gpu_resident_test.xz, dd/mmasp.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k dd/*.xz && chmod +x dd/*) || exit 1
exec > >(tee -a "$OUT/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 200 $G/dd/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test8.txt 2>&1
echo "gpu_resident_test (the cubin, dd): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|^\[       OK" $OUT/gpu_resident_test8.txt
s=$(date +%s)
timeout 150 $G/dd/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest8.txt 2>&1
echo "selftest --faults (dd): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/selftest8.txt
