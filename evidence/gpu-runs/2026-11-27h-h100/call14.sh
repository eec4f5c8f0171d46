#!/bin/bash
# Issue #28, sixteenth session, fourteenth call (an H100): the closing checks with main as it stands (nm4 = e9a43d7:
# the shared NVML opener, with_tag, one byte packer for the case tables; kernels d6de420's byte for byte):
# mmasp selftest --faults on the GPU, gpu_execution_test, gpu_resident_test's cubin cases, the rare fault (1 in 10^8,
# 60 s). Run from the repository root with gpu-carry11 carried (nm4/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm4/*.xz && chmod +x nm4/*)
exec > >(tee -a "$OUT/call14.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 200 $G/nm4/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest14.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest14.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/nm4/mmasp timeout 150 $G/nm4/gpu_execution_test > $OUT/gpu_execution_test14.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test14.txt
s=$(date +%s)
timeout 120 $G/nm4/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test14.txt 2>&1
echo "gpu_resident_test (cubin cases): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test14.txt
s=$(date +%s)
timeout 120 $G/nm4/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare14.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare14.txt
