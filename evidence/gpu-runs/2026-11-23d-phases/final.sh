#!/bin/bash
# Closing measurements for issue #13 on one H100: the GPU suites; before/after on the same machine
# (resident_benchmark_base = 9353602, resident_benchmark = this code), m16n8k16 f16->f32 ordered with the host path,
# alternated twice; every sm_90 form (selector 0); a D bit flipped in 1 of 10^8 cases for 60 s; then
# mmasp run --budget 60 with --resident off and auto (../2026-11-23-resident/measure-b.sh, carried as gpu-carry/measure-b.sh).
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s); timeout 90 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 90 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
f="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
for round in 1 2; do
  echo "== before (9353602), round $round"; $G/resident_benchmark_base --form "$f" --host-cases 32768 --seconds 0.3 | tail -n +2
  echo "== after, round $round"; $G/resident_benchmark --form "$f" --host-cases 32768 --seconds 0.3 | tail -n +2
done
echo "== every form, selector 0"; $G/resident_benchmark --host-cases 0 --seconds 0.1
echo "== rare fault"; $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 --rare-fault 100000000 --fault-seconds 60 | tail -2
bash $G/measure-b.sh
