#!/bin/bash
# Session 2026-11-23b, call 1: the GPU suites and the fault catalogue after the model refactor; an ncu profile of the
# resident kernel (check mode) for m16n8k16 f16->f32 and fp8 k64.
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/p1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s); timeout 60 $G/gpu_execution_test --gtest_filter='GpuExecution*' 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -5; echo "gpu suites $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 150 $G/mmasp selftest --faults --cases 300 --json $OUT/selftest.json > $OUT/selftest.txt 2>&1; echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -3 $OUT/selftest.txt; tail -3 $OUT/selftest.txt
for f in "sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3"; do
  n=$(echo $f | tr -c 'a-z0-9\n' _ | tail -c 30)
  timeout 120 ncu --clock-control none --launch-skip 2 --launch-count 1 --set full --import-source no -o $OUT/prof-$n $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu-$n.txt 2>&1; echo "ncu $n exit $?"
  ncu -i $OUT/prof-$n.ncu-rep --page details > $OUT/details-$n.txt 2>&1
  ncu -i $OUT/prof-$n.ncu-rep --page source --csv --print-source sass > $OUT/sass-$n.csv 2>&1; echo "sass $(wc -l < $OUT/sass-$n.csv) lines"
done
