#!/bin/bash
# Session 2026-11-23b, call 6 (mmasp e16cde3, the committed narrow model + lean kernel): GPU tests, a rare fault for
# 60 s, mmasp run --budget 60 with the host path alone and with the resident path, and gpu_model_fuzz one process
# against libFuzzer's -fork=8 (issue #17: batching by processes).
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/p6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s); timeout 100 $G/gpu_resident_test 2>&1 | grep -E "OK|FAIL|cases|launches" ; echo "gpu_resident_test $(( $(date +%s) - s )) s"
timeout 100 $G/resident_benchmark --form sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 --host-cases 32768 --seconds 0.3 --rare-fault 100000000 --fault-seconds 60
OUT=$OUT bash $G/measure-b.sh
cd /tmp && mkdir -p fz1 fz8
timeout 60 $G/gpu_model_fuzz -max_total_time=30 -print_final_stats=1 --gpu --family=f16 fz1 2>&1 | grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|DONE|ERROR|differs" | tail -4
timeout 70 $G/gpu_model_fuzz -fork=8 -max_total_time=30 --gpu --family=f16 fz8 2>&1 | grep -E "DONE|exec/s|ERROR|differs" | tail -3
