#!/bin/bash
# Issue #28, fourteenth session, sixth call (an H100): gpu_resident_test with ne, both images, given the time the
# driver takes to JIT-compile the compute_89 PTX image on a fresh machine (call4's 240 s limit ran out during it; the
# twelfth round's load took 184.6 s, ../2026-11-28-h100/gpu_resident_test2.txt). Run from the repository root with
# gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k ne/gpu_resident_test.xz && chmod +x ne/*)
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 450 $G/ne/gpu_resident_test > $OUT/gpu_resident_test6.txt 2>&1
echo "gpu_resident_test (ne): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |image:" $OUT/gpu_resident_test6.txt | head -12
