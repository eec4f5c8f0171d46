#!/bin/bash
# Issue #28, twentieth session, first call: with ngi (19317d5's build, the nineteenth session's final kernels)
# gpu_execution_test (not run with ngi before), then an ncu source-line profile of the fp8 kernel's first check launch
# (2^20 cases) for m16n8k64 f32.e4m3.e4m3.f32, joined with the cubin's line info by ../2026-11-23d-phases/lines.py:
# where an fp8 case's instructions go (drawing, packing, decoding, the judge's two passes, the finishing).
# Run from the repository root with gpu-carry12 carried (ngi/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ngi/*.xz && chmod +x ngi/*) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
MMASP_BINARY=$G/ngi/mmasp timeout 60 $G/ngi/gpu_execution_test > $OUT/gpu_execution_test1.txt 2>&1
echo "gpu_execution_test (ngi): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test1.txt
nvdisasm -g -c $G/ngi/resident_sm90a.cubin 2>&1 | gzip > /tmp/resident.sass.gz
f=m16n8k64.row.col.f32.e4m3.e4m3.f32
s=$(date +%s)
timeout 200 ncu --clock-control none -k regex:lean_fp8 --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats \
  --section ComputeWorkloadAnalysis -o /tmp/prof $G/ngi/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|^mma" /tmp/ncu.txt | cut -c1-160
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
echo "kernel profiled: $k"
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details1.txt 2>&1
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 200 > $OUT/lines1.txt 2>&1
head -12 $OUT/lines1.txt
cp /tmp/source.csv.gz $OUT/source1.csv.gz   # (not kept in git: 0.9 MB)
