#!/bin/bash
# Issue #28, twenty-seventh session, third call: this round's build (nw, 1406919) on the driver-JIT PTX image
# (gpu_resident_test's *ptx* tests: device cases equal host cases for every pair, as any sm_80+ GPU runs the image),
# then where the m16n8k16 f16->f32 kernel now spends its instructions: ncu's source page of one verified launch and
# nvdisasm's SASS with line numbers (the cubin taken out of resident_benchmark, which runs its embedded one here so
# that the lines map), read by ../2026-11-23d-phases/lines.py and ../2026-11-28g-stalls/opcodes.py.
# From the repository root with gpu-carry16 carried (nw/{resident_benchmark_full,gpu_resident_test}.xz).
set -u
G=$PWD/gpu-carry16
E=$PWD/evidence/gpu-runs
(cd $G && for f in nw/*.xz; do xz -d -f -k $f; done && chmod +x nw/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 420 $G/nw/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test3-ptx.txt 2>&1
echo "gpu_resident_test (PTX image, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test3-ptx.txt
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/nw/resident_benchmark_full /tmp/nw.cubin
nvdisasm -g -c /tmp/nw.cubin 2>&1 | gzip > /tmp/resident.sass.gz
s=$(date +%s)
timeout 150 ncu --clock-control none -k "regex:lean_k16_f16" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats -o /tmp/prof3 $G/nw/resident_benchmark_full \
  --form m16n8k16.row.col.f32.f16.f16.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu3.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu3.txt | cut -c1-160 | head
ncu -i /tmp/prof3.ncu-rep --page details > $OUT/details3-k16f16.txt 2>&1
ncu -i /tmp/prof3.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source3-k16f16.csv.gz
cp /tmp/resident.sass.gz $OUT/resident3.sass.gz
python3 $E/2026-11-23d-phases/lines.py $OUT/source3-k16f16.csv.gz /tmp/resident.sass.gz 1048576 mmasp_resident_lean_k16_f16 80 > $OUT/lines3-k16f16.txt 2>&1
python3 $E/2026-11-28g-stalls/opcodes.py $OUT/source3-k16f16.csv.gz 1048576 45 > $OUT/opcodes3-k16f16.txt 2>&1
head -14 $OUT/lines3-k16f16.txt; sed -n 2,3p $OUT/opcodes3-k16f16.txt
