#!/bin/bash
# Issue #28, sixteenth session, eleventh call (an H100): gpu_resident_test with both images (the sm_90a cubin and the
# compute_89 PTX image JIT-compiled by the driver: about 200-240 s on a fresh machine) with nm2 (main at d6de420, K
# merged): the device draws the host's cases, every pair clean, every catalogue fault caught, on both images. Run from
# the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm2/gpu_resident_test.xz && chmod +x nm2/*)
exec > >(tee -a "$OUT/call11.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 560 $G/nm2/gpu_resident_test > $OUT/gpu_resident_test11.txt 2>&1
echo "gpu_resident_test (nm2): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |image:| ms\)$" $OUT/gpu_resident_test11.txt | head -14
