#!/bin/bash
# Issue #28, twelfth session, ninth call (an H100): gpu_execution_test with the kept build (oc: ec9d036's code;
# every form x selector through the host path's GPU execution, and the watchdog test, which runs mmasp from
# MMASP_BINARY), and the rare fault with it (its form's kernel unchanged). Run from the repository root with
# gpu-carry10 carried.
set -u
G=$PWD/gpu-carry10
(cd $G && for f in oc/*.xz; do xz -d -f -k "$f"; done; chmod +x oc/*)
exec > >(tee -a "$OUT/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
MMASP_BINARY=$G/oc/mmasp timeout 400 $G/oc/gpu_execution_test > $OUT/gpu_execution_test9.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test9.txt
timeout 90 $G/oc/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
