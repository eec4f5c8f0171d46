#!/bin/bash
# After making the per-scheduler barrier the lean kernel's default: before/after (base = 9353602), the profile, and
# the GPU suites on this code.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/check1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
for round in 1 2; do
  echo "== round $round base"; $G/resident_benchmark_base --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  echo "== round $round new";  $G/resident_benchmark --form "$F" --host-cases 0 --seconds 0.3 | tail -1
done
bash $G/profile.sh
echo "== gpu_resident_test"; time $G/gpu_resident_test 2>&1 | tail -5
echo "== gpu_execution_test"; time $G/gpu_execution_test 2>&1 | tail -3
