#!/bin/bash
# Issue #28, thirty-fourth session, seventh call: 5070057's build's gpu_resident_test on its driver-JIT PTX images
# (compute_89 and compute_80). From the repository root with gpu-carry23/p carried (gpu_resident_test.xz).
set -u
G=$PWD/gpu-carry23/p
(cd $G && xz -d -c gpu_resident_test.xz > gpu_resident_test && chmod +x gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 540 $G/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test7-ptx.txt 2>&1
echo "gpu_resident_test (PTX images): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test7-ptx.txt
