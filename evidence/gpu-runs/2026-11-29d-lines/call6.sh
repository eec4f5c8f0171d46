#!/bin/bash
# Issue #28, twenty-sixth session, sixth call: ncu of this round's m16n8k16 f16->f32 kernel (nw's
# mmasp_resident_lean_k16_f16, one verified launch), as call1.sh profiled HEAD's: instructions a case by source line.
# From the repository root with gpu-carry16 carried (nw/resident_benchmark.xz, its cubin zeroed; v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry16
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -f -k nw/resident_benchmark.xz && chmod +x nw/resident_benchmark && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
nvdisasm -g -c $G/v/nw.cubin 2>&1 | gzip > /tmp/resident.sass.gz
s=$(date +%s)
timeout 150 ncu --clock-control none -k "regex:lean_k16_f16" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats -o /tmp/prof6 $G/nw/resident_benchmark --image-file $G/v/nw.cubin \
  --form m16n8k16.row.col.f32.f16.f16.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu6.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu6.txt | cut -c1-160 | head
ncu -i /tmp/prof6.ncu-rep --page details > $OUT/details6-k16f16.txt 2>&1
ncu -i /tmp/prof6.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source6.csv.gz
python3 $E/2026-11-23d-phases/lines.py /tmp/source6.csv.gz /tmp/resident.sass.gz 1048576 mmasp_resident_lean_k16_f16 60 > $OUT/lines6-k16f16.txt 2>&1
python3 $E/2026-11-28g-stalls/opcodes.py /tmp/source6.csv.gz 1048576 45 > $OUT/opcodes6-k16f16.txt 2>&1
head -12 $OUT/lines6-k16f16.txt; grep -E "Issue Slots Busy|Eligible Warps|No Eligible" $OUT/details6-k16f16.txt | head -4
