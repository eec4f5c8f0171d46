#!/bin/bash
# Issue #28, thirtieth session, first call, on HEAD f919860's resident_benchmark (its cubin embedded): every executed
# SASS instruction of the k16 f16 (m16n8k16 f16->f32) and fp8 (e4m3 k64) kernels with its count per case and source line
# (annotate.py: ncu's source page of one verified launch of 2^20 cases joined with nvdisasm -g), to find the control
# flow (BRA/BSSY/BSYNC, 230 a case in k16 f16) and constant loads worth removing. One tgz back.
# From the repository root with gpu-carry19/d carried (bins.tar.xz: resident_benchmark as rb, stripped).
set -u
G=$PWD/gpu-carry19/d
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb) || exit 1
rm -rf /tmp/t1 && mkdir -p /tmp/t1
exec > >(tee -a "/tmp/t1/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/rb /tmp/head.cubin
nvdisasm -g -c /tmp/head.cubin 2>&1 | gzip > /tmp/t1/resident.sass.gz
echo "sass: $(zcat /tmp/t1/resident.sass.gz | wc -l) lines"
for k in k16_f16:m16n8k16.row.col.f32.f16.f16.f32 fp8:m16n8k64.row.col.f32.e4m3.e4m3.f32; do
  name=${k%%:*}; form=${k#*:}
  s=$(date +%s)
  timeout 150 ncu --clock-control none -k "regex:lean_$name\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats -o /tmp/prof-$name $G/rb --form $form --host-cases 0 --seconds 0.05 > /tmp/ncu-$name.txt 2>&1
  echo "== ncu ($name): exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$name.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$name.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-$name.csv.gz
  python3 $E/2026-11-29h-branches/annotate.py /tmp/source-$name.csv.gz /tmp/t1/resident.sass.gz 1048576 mmasp_resident_lean_$name > /tmp/t1/annotated1-$name.txt 2>&1
  gzip -9 /tmp/t1/annotated1-$name.txt
done
tar czf $OUT/call1.tgz -C /tmp/t1 .
