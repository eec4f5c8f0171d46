#!/bin/bash
# Where the lean kernel's instructions and stalls go, by source line: an ncu source-counter profile of the check
# launch (1,048,576 cases) for m16n8k16 f16->f32 ordered, and the cubin's SASS with line info (nvdisasm -g) to map
# addresses to lines. Run from the repository root with gpu-carry/ carried.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
f="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
$G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2
timeout 200 ncu --clock-control none --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
  --section InstructionStats --section LaunchStats --section Occupancy -o $OUT/prof $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu.txt 2>&1
echo "ncu exit $?"; tail -3 $OUT/ncu.txt
ncu -i $OUT/prof.ncu-rep --page details > $OUT/details.txt 2>&1
ncu -i $OUT/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source.csv.gz
nvdisasm -g -c $G/resident_sm90a.cubin 2>&1 | gzip > $OUT/resident.sass.gz
ls -la $OUT; rm -f $OUT/prof.ncu-rep
