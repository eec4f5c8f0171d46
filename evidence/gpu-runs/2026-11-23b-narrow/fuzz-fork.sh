#!/bin/bash
# Issue #17: gpu_model_fuzz (ASan/UBSan build) on the H100, one process against libFuzzer's -fork=8 (8 processes,
# 8 contexts on one GPU), 25 s each, family f16.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/p7.log") 2>&1
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:allow_user_segv_handler=1   # ASan and the CUDA driver
mkdir -p /tmp/fz1 /tmp/fz8
timeout 60 $G/gpu_model_fuzz -max_total_time=25 -print_final_stats=1 --gpu --family=f16 /tmp/fz1 > /tmp/fz1.log 2>&1; echo "one process: exit $?"
grep -vE "^#[0-9]+.*(NEW|REDUCE)" /tmp/fz1.log | tail -12
timeout 60 $G/gpu_model_fuzz -fork=8 -max_total_time=25 --gpu --family=f16 /tmp/fz8 > /tmp/fz8.log 2>&1; echo "fork=8: exit $?"
grep -E "DONE|exec/s|ERROR|INFO: fork|corpus" /tmp/fz8.log | tail -8
