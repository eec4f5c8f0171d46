#!/bin/bash
# Closing checks at this session's last kernel code (2026-11-23d): the GPU suites, the fault catalogue on the GPU, and the
# m16n8k16 f16->f32 benchmark row.
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/closing.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 90 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 90 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -5; echo "gpu_resident_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 200 $G/mmasp selftest --faults --cases 300 > $OUT/selftest.txt 2>&1; echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -3 $OUT/selftest.txt; tail -3 $OUT/selftest.txt
$G/resident_benchmark --form "sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" --host-cases 0 --seconds 0.3 | tail -n +2
