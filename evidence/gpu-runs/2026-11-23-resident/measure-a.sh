#!/bin/bash
# Issue #13 measurements, part A: the resident path's GPU tests, the benchmark table (every sm_90 form, selector 0:
# verified cases/s, the draw and draw+run stages, the bare mma.sp rate, the host path) and a rare fault for 60 s.
set -u
G=$PWD/gpu-carry
exec > >(tee $OUT/measure-a.log) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== gpu_resident_test"
timeout 200 $G/gpu_resident_test 2>&1 | grep -E "^\[|cases judged"
echo "== resident_benchmark --seconds 0.3 --host-cases 32768"
timeout 330 $G/resident_benchmark --seconds 0.3 --host-cases 32768
echo "== resident_benchmark --form m16n8k16.row.col.f32.f16 --host-cases 0 --rare-fault 100000000 --fault-seconds 60"
timeout 150 $G/resident_benchmark --form sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 --seconds 0.3 --host-cases 0 --rare-fault 100000000 --fault-seconds 60
