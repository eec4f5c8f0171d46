#!/bin/bash
# Issue #28, twenty-second session, sixth call: source-line profiles (ncu source counters joined to nvdisasm's line
# table by ../2026-11-23d-phases/lines.py) of nc's kernels after this round, for the next round's planning: the fp8
# kernel (m16n8k64 e4m3) and the lean kernel (m16n8k16 f16->f32). Run from the repository root with gpu-carry13
# carried (nc/resident_benchmark.xz, vg/nc.cubin.xz: nc's embedded cubin).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nc/*.xz vg/nc.cubin.xz && chmod +x nc/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
nvdisasm -g -c $G/vg/nc.cubin 2>&1 | gzip > /tmp/resident.sass.gz
for pair in "fp8 m16n8k64.row.col.f32.e4m3.e4m3.f32 lean_fp8 mmasp_resident_lean_fp8" "f16 m16n8k16.row.col.f32.f16.f16.f32 ^mmasp_resident_lean$ mmasp_resident_lean"; do
  set -- $pair
  s=$(date +%s)
  timeout 150 ncu --clock-control none -k "regex:$3" --launch-skip 3 --launch-count 1 --section SourceCounters \
    -o /tmp/prof6-$1 $G/nc/resident_benchmark --form "$2" --host-cases 0 --seconds 0.05 > /tmp/ncu6-$1.txt 2>&1
  echo "== $1 $2: ncu exit $? in $(( $(date +%s) - s )) s"
  ncu -i /tmp/prof6-$1.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source6-$1.csv.gz
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source6-$1.csv.gz /tmp/resident.sass.gz 1048576 $4 200 > $OUT/lines6-$1.txt 2>&1
  head -14 $OUT/lines6-$1.txt
done
