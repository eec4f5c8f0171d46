#!/bin/bash
# Issue #28, twenty-first session, seventh call: every gpu_resident_test case with nc = main's build after the
# review's change to resident_pair_tables (the f32 tables and narrow_fp8_blocks decided from the tables it builds;
# host code only, the kernels' .text unchanged: ResidentFrames). Run from the repository root with gpu-carry13 carried.
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nc/*.xz && chmod +x nc/*) || exit 1
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 300 $G/nc/gpu_resident_test > $OUT/gpu_resident_test7.txt 2>&1
echo "gpu_resident_test (every case, nc): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test7.txt
