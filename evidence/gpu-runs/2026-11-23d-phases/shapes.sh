#!/bin/bash
# Issue #13: does keeping a scheduler's warps together (drawing together, judging together) cut the instruction-fetch
# stalls? The lean kernel's block shape and barrier, set by MMASP_RESIDENT_SHAPE="warps per block,barrier" (an
# experiment's switch: 0 none, 1 per scheduler, 2 the block), against the previous build (resident_benchmark_base,
# 9353602), alternated, on one machine.
G=$PWD/gpu-carry
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
for round in 1 2; do
  echo "== round $round, base (9353602)"
  $G/resident_benchmark_base --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  for shape in 4,0 32,0 32,1 32,2 16,1 8,1; do
    echo "== round $round, shape $shape"
    MMASP_RESIDENT_SHAPE=$shape $G/resident_benchmark --form "$F" --host-cases 0 --seconds 0.3 | tail -1
  done
done
