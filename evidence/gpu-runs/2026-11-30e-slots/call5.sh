#!/bin/bash
# Issue #28, thirty-fifth session, fifth call: the build's gpu_resident_test (call4.sh's) on its driver-JIT PTX images
# (compute_89 and compute_80). From the repository root with gpu-carry24/m carried (all.tar.xz).
set -u
G=$PWD/gpu-carry24/m
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 560 $G/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test5-ptx.txt 2>&1
echo "gpu_resident_test (PTX images): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test5-ptx.txt
