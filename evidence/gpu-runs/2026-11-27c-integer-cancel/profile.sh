#!/bin/bash
# Issue #28, ninth session: where a case's instructions go in the committed kernel (the sm_90a cubin built at this
# commit, loaded with --image-file by the committed benchmark, whose self-check compares its cases and D with the
# host's first): ncu source counters of the first check launch (2^20 cases; the benchmark's launches before it are the
# self-check's dump and two bare-issue launches, hence --launch-skip 3), joined with the cubin's line info by
# ../2026-11-23d-phases/lines.py. m16n8k128 s4 (ordered) and, to compare with the seventh round's 4,092, m16n8k16
# f16->f32 (ordered). Run from the repository root with gpu-carry8 carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/resident_benchmark.xz x/head.cubin.xz && chmod +x n/resident_benchmark)
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvdisasm -g -c $G/x/head.cubin 2>&1 | gzip > $OUT/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4 ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats -o $OUT/prof$i $G/n/resident_benchmark --image-file $G/x/head.cubin \
    --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" $OUT/ncu$i.txt | cut -c1-120
  k=$(ncu -i $OUT/prof$i.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
  ncu -i $OUT/prof$i.ncu-rep --page details 2>&1 | grep -E "Grid Size|Block Size|Executed Ipc A|Issue Slots Busy" | head -6
  ncu -i $OUT/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source$i.csv.gz
  rm -f $OUT/prof$i.ncu-rep
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py $OUT/source$i.csv.gz $OUT/resident.sass.gz 1048576 $k 60 > $OUT/lines$i.txt 2>&1; head -12 $OUT/lines$i.txt
done
rm -f $OUT/source*.csv.gz $OUT/resident.sass.gz $OUT/ncu*.txt
