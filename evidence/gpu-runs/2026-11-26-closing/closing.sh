#!/bin/bash
# Closing checks on one H100 for 2026-11-26's changes (the budget plan; the model arithmetic refactored for block scale:
# Block::unrounded, element_filled, which the resident kernel compiles too): the GPU suites, m16n8k16 f16->f32 resident
# throughput before (80fa620) and after, alternated, and mmasp run --budget 60 before and after on this machine.
set -u
G=$PWD/gpu-carry2
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x gpu_execution_test gpu_resident_test mmasp mmasp_base resident_benchmark resident_benchmark_base)
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/closing.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s); timeout 150 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 150 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
f="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
for round in 1 2; do
  echo "== before (80fa620), round $round"; $G/resident_benchmark_base --form "$f" --host-cases 0 --seconds 0.3 | tail -n +2
  echo "== after, round $round"; $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.3 | tail -n +2
done
W=/tmp/b && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s); $G/mmasp compile > compile.log 2>&1; echo "warm-up compile: exit $? in $(( $(date +%s) - s )) s"
for build in mmasp_base mmasp; do
  s=$(date +%s.%N)
  $G/$build run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out $build > $build.log 2>&1
  echo "$build run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  tail -4 $build.log
  cp $build/run.json $OUT/$build-run.json; cp $build/summary.md $OUT/$build-summary.md
done
