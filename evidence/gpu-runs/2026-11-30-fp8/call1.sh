#!/bin/bash
# Issue #28, thirty-first session, first call, on HEAD a6f59d0's resident_benchmark (its cubin embedded): the fp8
# kernel (e4m3 k64) after the fp8-words change, under ncu: every executed SASS instruction with its count per case,
# stall share and source line (annotate.py), the details page (issue busy, eligible warps, stall reasons), and a
# baseline rate for the eight fp8 forms. One tgz back.
# From the repository root with gpu-carry20/d carried (bins.tar.xz: resident_benchmark as rb, stripped).
set -u
G=$PWD/gpu-carry20/d
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb) || exit 1
rm -rf /tmp/t1 && mkdir -p /tmp/t1
exec > >(tee -a "/tmp/t1/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/rb /tmp/head.cubin
nvdisasm -g -c /tmp/head.cubin 2>&1 | gzip > /tmp/t1/resident.sass.gz
echo "sass: $(zcat /tmp/t1/resident.sass.gz | wc -l) lines"
form=m16n8k64.row.col.f32.e4m3.e4m3.f32
s=$(date +%s)
timeout 200 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section SpeedOfLight \
  -o /tmp/prof-fp8 $G/rb --form $form --host-cases 0 --seconds 0.05 > /tmp/ncu-fp8.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-fp8.txt | cut -c1-160 | head
ncu -i /tmp/prof-fp8.ncu-rep --page details > /tmp/t1/details1-fp8.txt 2>&1
ncu -i /tmp/prof-fp8.ncu-rep --page raw --csv 2>&1 | gzip > /tmp/t1/raw1-fp8.csv.gz
ncu -i /tmp/prof-fp8.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-fp8.csv.gz
python3 $E/2026-11-29h-branches/annotate.py /tmp/source-fp8.csv.gz /tmp/t1/resident.sass.gz 1048576 mmasp_resident_lean_fp8 > /tmp/t1/annotated1-fp8.txt 2>&1
gzip -9 /tmp/t1/annotated1-fp8.txt
echo "== fp8 forms, twice"
for pass in 1 2; do $G/rb --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > /tmp/t1/fp8-$pass.txt 2>&1; tail -12 /tmp/t1/fp8-$pass.txt; done
tar czf $OUT/call1.tgz -C /tmp/t1 .
