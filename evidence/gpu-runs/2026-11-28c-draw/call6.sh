#!/bin/bash
# Issue #28, eighteenth session, sixth call: nc = main's tree with vC's draw for every kernel but the dense ones, which
# keep lane 0's slot-0 branch (kSlotZeroApart); its cubin's kernels are byte for byte vC's (call5) and, for the two
# dense kernels, na's (call3), so no new table: with nc, gpu_resident_test's cubin cases, the rare fault (1 in 10^8,
# 60 s) and mmasp selftest --faults on the GPU. Run from the repository root with gpu-carry12 carried (nc/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k nc/*.xz && chmod +x nc/*) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 60 $G/nc/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test6c.txt 2>&1
echo "gpu_resident_test (cubin cases, nc): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test6c.txt
s=$(date +%s)
timeout 90 $G/nc/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare6.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare6.txt
s=$(date +%s)
timeout 150 $G/nc/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest6.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest6.txt | tail -2
