#!/bin/bash
# After this session's harness and model changes: the GPU suites and the fault catalogue on the H100.
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/device6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 200 $G/gpu_execution_test --gtest_filter='GpuExecution*' 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -8; echo "gpu suites $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 330 $G/mmasp selftest --faults --cases 1000 --json $OUT/selftest.json > /tmp/selftest.txt 2>&1; echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -3 /tmp/selftest.txt; grep -vE ": ([0-9]+) of \1 affected pairs caught" /tmp/selftest.txt | tail -8
