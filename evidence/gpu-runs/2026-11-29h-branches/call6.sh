#!/bin/bash
# Issue #28, thirtieth session, sixth call, on the build with fp8-words.diff (vF8's kernels: every .text section of its
# cubin the same as vF8.cubin's, which call5.sh measured): gpu_resident_test on the embedded cubin and on the
# driver-JIT PTX images (device cases equal host cases for every pair; every catalogue fault caught wherever it changes
# a result), then mmasp selftest --faults on the GPU. The rare fault runs on the k16 f16 kernel, which this change
# left byte for byte as call3.sh checked it.
# From the repository root with gpu-carry19/i carried (all.tar.xz: gpu_resident_test and mmasp, stripped, and mmasp
# prepare --target sm_90a's modules; one solid xz).
set -u
G=$PWD/gpu-carry19/i
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x gpu_resident_test mmasp) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test6-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test6-cubin.txt
s=$(date +%s)
timeout 280 $G/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test6-ptx.txt 2>&1
echo "gpu_resident_test (PTX images): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test6-ptx.txt
s=$(date +%s)
timeout 110 $G/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest6.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/selftest6.txt
