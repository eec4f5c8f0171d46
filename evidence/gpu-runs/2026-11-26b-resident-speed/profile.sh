#!/bin/bash
# Issue #28, second day's session: where the lean kernel's instructions go at 4cce479, per source line (ncu source
# counters joined with the cubin's SASS line info by lines.py): f16->f32 k16 (1,024-thread lean kernel) and e4m3 k64
# (768-thread lean kernel). Run from the repository root with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && xz -d -f resident_benchmark.xz && xz -d -f resident.cubin.xz && chmod +x resident_benchmark)
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/resident.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for spec in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16:mmasp_resident_lean" \
            "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3:mmasp_resident_lean_768"; do
  i=$((i+1)); f=${spec%%:*}; k=${spec##*:}
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats -o $OUT/prof$i $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "^(form|mma)" $OUT/ncu$i.txt | cut -c1-140
  ncu -i $OUT/prof$i.ncu-rep --page details 2>&1 | grep -E "Executed Instructions |Grid Size|Block Size|Duration"
  ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
  rm -f $OUT/prof$i.ncu-rep
  python3 $G/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k > $OUT/lines$i.txt 2>&1; head -100 $OUT/lines$i.txt
done
