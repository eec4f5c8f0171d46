#!/bin/bash
# Issue #28, twenty-sixth session, first call: where the m16n8k16 f16->f32 kernel and the fp8 kernel spend their
# instructions, line by line and opcode by opcode, for this round's variants: ncu's source page (SASS with executed
# counts and stall samples) and nvdisasm's SASS with line numbers, both kept, for one verified launch of each of
# HEAD's kernels (gpu-carry15/nw: 0d47bd2's build, whose cubin is HEAD's kernel for kernel). Run from the repository
# root with gpu-carry15 carried.
set -u
G=$PWD/gpu-carry15
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -f -k nw/resident_benchmark.xz v/nw.cubin.xz && chmod +x nw/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
nvdisasm -g -c $G/v/nw.cubin 2>&1 | gzip > $OUT/resident.sass.gz
for pair in "k16f16 m16n8k16.row.col.f32.f16.f16.f32 lean_k16_f16 mmasp_resident_lean_k16_f16" \
            "fp8 m16n8k64.row.col.f32.e4m3.e4m3.f32 fp8 mmasp_resident_lean_fp8"; do
  set -- $pair
  s=$(date +%s)
  timeout 200 ncu --clock-control none -k "regex:$3" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    -o /tmp/prof-$1 $G/nw/resident_benchmark --form "$2" --host-cases 0 --seconds 0.05 > /tmp/ncu-$1.txt 2>&1
  echo "== $1 $2: ncu exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$1.txt | cut -c1-160 | head
  grep -E "Launch|cases" /tmp/ncu-$1.txt | head -5
  ncu -i /tmp/prof-$1.ncu-rep --page details > $OUT/details1-$1.txt 2>&1
  ncu -i /tmp/prof-$1.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source1-$1.csv.gz
  python3 $E/2026-11-23d-phases/lines.py $OUT/source1-$1.csv.gz $OUT/resident.sass.gz 1048576 $4 60 > $OUT/lines1-$1.txt 2>&1
  head -14 $OUT/lines1-$1.txt
done
ls -la $OUT
