#!/bin/bash
# Issue #28, seventeenth session, third call (the H100 of call2, warm): gpu_resident_test with nm5 (the fp8 kernel in
# blocks of up to 640 threads), every case: the sm_90a cubin and the compute_89 and compute_80 PTX images, which the
# driver JIT-compiles (about 220 s). Run from the repository root with gpu-carry11 carried (nm5/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm5/*.xz && chmod +x nm5/*)
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 560 $G/nm5/gpu_resident_test > $OUT/gpu_resident_test3.txt 2>&1
echo "gpu_resident_test (nm5): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|^\[  FAILED" $OUT/gpu_resident_test3.txt
