#!/bin/bash
# Issue #28, twenty-eighth session, fourth call: where fn's k16 f16 (f16->f32) and fp8 (e4m3 k64) kernels spend their
# instructions now, for the next round: ncu's source page of one verified launch each (2^20 cases) and nvdisasm's SASS
# with line numbers of the cubin fn's resident_benchmark embeds (run with its own cubin, so that the lines map), joined
# by ../2026-11-23d-phases/lines.py; stall reasons by ../2026-11-28g-stalls/opcodes.py. One tgz back.
# From the repository root with gpu-carry17/q carried (resident_benchmark.xz: fn's, stripped, its cubin kept).
set -u
G=$PWD/gpu-carry17/q
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -f -k resident_benchmark.xz && chmod +x resident_benchmark) || exit 1
mkdir -p /tmp/t4
exec > >(tee -a "/tmp/t4/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/resident_benchmark /tmp/fn.cubin
nvdisasm -g -c /tmp/fn.cubin 2>&1 | gzip > /tmp/resident.sass.gz
echo "sass: $(zcat /tmp/resident.sass.gz | wc -l) lines"
for k in fp8:m16n8k64.row.col.f32.e4m3.e4m3.f32 k16_f16:m16n8k16.row.col.f32.f16.f16.f32; do
  name=${k%%:*}; form=${k#*:}
  s=$(date +%s)
  timeout 150 ncu --clock-control none -k "regex:lean_$name\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats -o /tmp/prof-$name $G/resident_benchmark --form $form --host-cases 0 --seconds 0.05 > /tmp/ncu-$name.txt 2>&1
  echo "== ncu ($name): exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$name.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$name.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/t4/source4-$name.csv.gz
  python3 $E/2026-11-23d-phases/lines.py /tmp/t4/source4-$name.csv.gz /tmp/resident.sass.gz 1048576 mmasp_resident_lean_$name 80 > /tmp/t4/lines4-$name.txt 2>&1
  python3 $E/2026-11-28g-stalls/opcodes.py /tmp/t4/source4-$name.csv.gz 1048576 45 > /tmp/t4/opcodes4-$name.txt 2>&1
  head -16 /tmp/t4/lines4-$name.txt; sed -n 2,3p /tmp/t4/opcodes4-$name.txt
done
rm -f /tmp/t4/source4-*.csv.gz
tar czf $OUT/call4.tgz -C /tmp/t4 .
