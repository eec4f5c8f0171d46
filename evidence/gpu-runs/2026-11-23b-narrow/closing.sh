#!/bin/bash
# Session 2026-11-23b, closing checks at mmasp 1eba414: GPU suites, the fault catalogue on the GPU, the resident GPU
# tests, and gpu_model_fuzz --gpu without ASAN_OPTIONS (the target's own defaults).
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/closing.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 60 $G/gpu_execution_test 2>&1 | grep -E "runs|PASSED|FAILED|SKIPPED|tests ran" ; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 60 $G/gpu_resident_test 2>&1 | grep -E "OK|FAIL|cases|launches" ; echo "gpu_resident_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 200 $G/mmasp selftest --faults --cases 300 > /tmp/selftest.txt 2>&1; echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -3 /tmp/selftest.txt; tail -2 /tmp/selftest.txt
unset ASAN_OPTIONS; mkdir -p /tmp/fz
timeout 40 $G/gpu_model_fuzz -max_total_time=15 -print_final_stats=1 --gpu --family=bf16 /tmp/fz 2>&1 | grep -E "forms on|stat::number_of_executed|stat::average_exec|ERROR|differs" ; echo "fuzz exit ${PIPESTATUS[0]}"
