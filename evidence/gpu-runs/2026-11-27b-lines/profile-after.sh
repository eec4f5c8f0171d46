#!/bin/bash
# Issue #28, eighth session: profile.sh's count for the committed kernel after this round (gpu-carry7/n, dc0383b's
# code): warp instructions per case of m16n8k16 f16->f32 and m16n8k32 bf16->f32, per source line. Run from the
# repository root with gpu-carry7/n carried (it ran with a carried copy of lines.py printing 90 lines, which this argument now asks for).
set -u
G=$PWD/gpu-carry7
(cd $G/n && xz -d -f -k resident_benchmark.xz resident.cubin.xz && chmod +x resident_benchmark)
exec > >(tee -a "$OUT/profile-after.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/n/resident.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats -o $OUT/prof$i $G/n/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"
  k=$(ncu -i $OUT/prof$i.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
  ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
  rm -f $OUT/prof$i.ncu-rep
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k 90 > $OUT/lines-after$i.txt 2>&1; head -12 $OUT/lines-after$i.txt
done
rm -f $OUT/source*.csv.gz $OUT/resident.sass.gz $OUT/ncu*.txt
