#!/bin/bash
# Which barriers to keep: MMASP_RESIDENT_PHASES="points,every" (an experiment's switch; points: 1 after drawing,
# 2 after judging, 3 both; every: on every n-th round of cases), against 9353602, alternated, on one machine.
G=$PWD/gpu-carry
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
for round in 1 2; do
  echo "== round $round, base (9353602)"
  $G/resident_benchmark_base --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  for phases in 3,1 1,1 2,1 3,2 1,2 2,2 3,4; do
    echo "== round $round, phases $phases"
    MMASP_RESIDENT_PHASES=$phases $G/resident_benchmark --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  done
done
