#!/bin/bash
# Issue #28, nineteenth session, third call: call2's gpu_execution_test again, with MMASP_BINARY naming the carried
# mmasp (call2 left it out, so its watchdog test looked for build/mmasp, which the device machine has not). Run from the
# repository root with gpu-carry12 carried (ng/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ng/mmasp.xz ng/gpu_execution_test.xz && chmod +x ng/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
MMASP_BINARY=$G/ng/mmasp timeout 100 $G/ng/gpu_execution_test > $OUT/gpu_execution_test3.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test3.txt
