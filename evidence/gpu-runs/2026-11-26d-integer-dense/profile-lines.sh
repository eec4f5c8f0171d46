#!/bin/bash
# Issue #28, fourth round: where a float case's instructions go in s10 (9b20860), per source line (ncu source
# counters joined with the cubin's SASS line info by lines.py; the cubin is the same source built with -lineinfo):
# m16n8k16 f16->f32 and m16n8k32 bf16->f32, the first check launch (2^20 cases). Run from the repository root with
# gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k s10/resident_benchmark.xz && xz -d -f -k s10/resident.cubin.xz && chmod +x s10/resident_benchmark)
exec > >(tee -a "$OUT/profile-lines.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/s10/resident.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section WarpStateStats --section SchedulerStats -o $OUT/prof$i \
    $G/s10/resident_benchmark --form $f --host-cases 0 --seconds 0.001 > /dev/null 2>&1
  echo "== $f: ncu exit $?"
  ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
  ncu -i $OUT/prof$i.ncu-rep --page details > $OUT/details$i.txt 2>&1
  rm -f $OUT/prof$i.ncu-rep
  k=$(grep -o -m1 "mmasp_resident_lean[a-z0-9_]*" $OUT/details$i.txt)
  python3 $G/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k > $OUT/lines$i.txt 2>&1; head -70 $OUT/lines$i.txt
done
rm -f $OUT/source*.csv.gz
