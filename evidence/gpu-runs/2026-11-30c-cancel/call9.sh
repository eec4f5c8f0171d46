#!/bin/bash
# Issue #28, thirty-third session, ninth call: call8.sh's build's gpu_resident_test on its driver-JIT
# PTX images (compute_89 and compute_80). From the repository root with gpu-carry22/i carried (gpu_resident_test.xz).
set -u
G=$PWD/gpu-carry22/i
(cd $G && xz -d -c gpu_resident_test.xz > gpu_resident_test && chmod +x gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 480 $G/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test9-ptx.txt 2>&1
echo "gpu_resident_test (PTX images): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test9-ptx.txt
