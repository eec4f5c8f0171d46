#!/bin/bash
# Closing checks of this session's code (6d611f7) on one H100: the GPU suites (gpu_execution_test, gpu_resident_test)
# and mmasp selftest --faults.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in mmasp.xz gpu_resident_test.xz gpu_execution_test.xz; do xz -d -f $f; done && chmod +x mmasp gpu_resident_test gpu_execution_test)
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/closing.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 150 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 300 $G/mmasp selftest --faults --cases 300 --threads 16 --json $OUT/selftest.json > /tmp/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|missed|MISSED|unseeable|^mmasp selftest" /tmp/selftest.txt | tail -4
cp /tmp/selftest.txt $OUT/selftest.txt
