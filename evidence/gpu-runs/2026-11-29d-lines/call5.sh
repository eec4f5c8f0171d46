#!/bin/bash
# Issue #28, twenty-sixth session, fifth call: nw's gpu_resident_test on the PTX image (JIT-compiled by the driver, as
# on any sm_80+ GPU; call3.sh ran its cubin half): device cases equal host cases for every pair, the refusals, many
# cases without a deviation, every catalogue fault. From the repository root with gpu-carry16 carried
# (nw/gpu_resident_test.xz).
set -u
G=$PWD/gpu-carry16
(cd $G && xz -d -f -k nw/gpu_resident_test.xz && chmod +x nw/gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 450 $G/nw/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test5.txt 2>&1
echo "gpu_resident_test (ptx, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|^\[       OK" $OUT/gpu_resident_test5.txt
