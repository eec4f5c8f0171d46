#!/bin/bash
# After judge mode stopped re-running the instruction in the general kernel (no change to the check itself): the
# resident GPU tests, and the m16n8k16 f16->f32 row beside the general-model form with --form filters.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/check-judge-mode.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 90 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4
$G/resident_benchmark --form "sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" --host-cases 0 --seconds 0.3 | tail -n +2
