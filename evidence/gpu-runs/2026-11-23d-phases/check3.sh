#!/bin/bash
# One barrier a case (after judging), and the cancellation profile's C from operand values the warp computes once:
# before/after against 9353602, the GPU suites, and the profile.
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/check3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
for round in 1 2; do
  echo "== round $round base"; $G/resident_benchmark_base --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  echo "== round $round new";  $G/resident_benchmark --form "$F" --host-cases 0 --seconds 0.3 | tail -1
done
echo "== gpu_resident_test"; $G/gpu_resident_test 2>&1 | tail -3
echo "== gpu_execution_test"; s=$(date +%s); timeout 200 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "$(( $(date +%s) - s )) s"
bash $G/profile.sh > /dev/null 2>&1; grep -E "Executed Instructions  |Cycles Per Issued" $OUT/details.txt
