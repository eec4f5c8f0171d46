#!/bin/bash
# The final build: the resident GPU tests (fault x pair included) and the m16n8k16 rows of the benchmark.
G=$PWD/gpu-carry
exec > >(tee $OUT/final.log) 2>&1
timeout 400 $G/gpu_resident_test 2>&1 | grep -vE "^\[ RUN|^$"
timeout 100 $G/resident_benchmark --form m16n8k16.row.col.f32.f16 --host-cases 0 --seconds 0.3
