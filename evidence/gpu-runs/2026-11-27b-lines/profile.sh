#!/bin/bash
# Issue #28, eighth session: where the committed kernel's (f25e4b3's code, built at 1aca3b7: gpu-carry7/s17)
# instructions go per source line, for the forms furthest from their targets: ncu source counters of the first check
# launch (2^20 cases; resident_benchmark launches issue, issue, check, ...: skip 2) joined with the cubin's SASS line
# info by lines.py. Run from the repository root with gpu-carry7/s17 carried (it ran with a carried copy of lines.py printing 90 lines, which this argument now asks for).
set -u
G=$PWD/gpu-carry7
(cd $G/s17 && xz -d -f -k resident_benchmark.xz && xz -d -f -k resident.cubin.xz && chmod +x resident_benchmark)
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/s17/resident.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16 \
         ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3 ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats -o $OUT/prof$i $G/s17/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "^(form|mma)" $OUT/ncu$i.txt | cut -c1-140
  ncu -i $OUT/prof$i.ncu-rep --page details > $OUT/details$i.txt 2>&1
  grep -E "mmasp_resident|Executed Instructions |Block Size|Duration" $OUT/details$i.txt
  k=$(grep -oE "mmasp_resident[a-z_0-9]*" $OUT/details$i.txt | head -1)
  ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
  rm -f $OUT/prof$i.ncu-rep
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k 90 > $OUT/lines$i.txt 2>&1; head -60 $OUT/lines$i.txt
done
