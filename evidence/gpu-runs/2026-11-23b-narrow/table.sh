#!/bin/bash
# Session 2026-11-23b, call 2: the narrow model + lean kernel: GPU tests, the benchmark table over every form, SASS.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/p2.log") 2>&1
s=$(date +%s); timeout 200 $G/gpu_resident_test 2>&1 | grep -vE "^\[ RUN|^$" | tail -12; echo "gpu_resident_test $(( $(date +%s) - s )) s"
cuobjdump -sass $G/resident_sm90a.cubin | gzip -9 > $OUT/resident.sass.gz
timeout 60 $G/resident_benchmark --form m16n8k16.row.col.f32.f16 --host-cases 32768 --seconds 0.3
timeout 150 ncu --clock-control none --kernel-name mmasp_resident_lean --launch-skip 2 --launch-count 1 --set full -o $OUT/lean $G/resident_benchmark --form "sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" --host-cases 0 --seconds 0.05 > /dev/null 2>&1; echo "ncu exit $?"
ncu -i $OUT/lean.ncu-rep --page details > $OUT/lean-details.txt 2>&1
ncu -i $OUT/lean.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $OUT/lean-source.csv.gz
rm -f $OUT/lean.ncu-rep
s=$(date +%s); timeout 200 $G/resident_benchmark --host-cases 16384 --seconds 0.2; echo "table $(( $(date +%s) - s )) s"
