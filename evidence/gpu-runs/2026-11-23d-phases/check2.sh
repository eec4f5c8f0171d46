#!/bin/bash
# Drawing and judging without divisions (run shapes and power-of-two shifts from the tables): before/after against
# 9353602, the profile again, and the GPU suites (the watchdog test in full: it failed in check1).
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/check2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
for round in 1 2; do
  echo "== round $round base"; $G/resident_benchmark_base --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  echo "== round $round new";  $G/resident_benchmark --form "$F" --host-cases 0 --seconds 0.3 | tail -1
done
echo "== gpu_execution_test (watchdog)"; $G/gpu_execution_test --gtest_filter='GpuWatchdog*' 2>&1 | tail -40
echo "== gpu_resident_test"; $G/gpu_resident_test 2>&1 | tail -3
bash $G/profile.sh > /dev/null 2>&1; grep -E "Executed Instructions  |Cycles Per Issued" $OUT/details.txt
