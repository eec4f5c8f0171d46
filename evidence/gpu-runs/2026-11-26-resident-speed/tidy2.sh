#!/bin/bash
# tidy.sh again with the environment the watchdog test needs (MMASP_BINARY, MMASP_MODULES; tidy.sh lacked them and
# GpuWatchdog failed to start mmasp), and bf16 k32 / e4m3 k64 against 6d611f7 alternated three times.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_* mmasp)
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/tidy2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 150 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
for round in 1 2 3; do
for f in "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3"; do
  for b in resident_benchmark_prev resident_benchmark; do
    printf "%-26s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
