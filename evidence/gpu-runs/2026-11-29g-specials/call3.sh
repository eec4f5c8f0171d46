#!/bin/bash
# Issue #28, twenty-ninth session, third call, on this round's build (vZ): (1) every form a second time, vZ then hd
# (call1.sh ran hd then vZ), vZ's resident_benchmark with its own cubin and with hd's (--image-file), for the integer
# forms, which call1.sh measured once each way; (2) where vZ's k16 f16 (f16->f32) and fp8 (e4m3 k64) kernels spend their
# instructions, for the next round: ncu's source page of one verified launch each (2^20 cases) joined with nvdisasm's
# line numbers (../2026-11-23d-phases/lines.py) and stall reasons (../2026-11-28g-stalls/opcodes.py); (3) vZ's
# gpu_resident_test on the driver-JIT PTX image (its *ptx* tests: device cases equal host cases for every pair; its
# embedded cubin zeroed, which these tests do not load). One tgz back, and the test's output.
# From the repository root with gpu-carry18/d carried (bins.tar.xz: vZ's resident_benchmark, stripped, its cubin kept;
# vZ's gpu_resident_test, stripped, its cubin zeroed; hd.cubin).
set -u
G=$PWD/gpu-carry18/d
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x resident_benchmark gpu_resident_test) || exit 1
rm -rf /tmp/t3 && mkdir -p /tmp/t3
exec > >(tee -a "/tmp/t3/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  image=""; [ "$3" = hd ] && image="--image-file $G/hd.cubin"
  $G/resident_benchmark $image ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t3/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t3/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t3/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 vZ m16n8k16.row.col.f32.f16.f16.f32
for pk in 2-vZ 2-hd; do run all ${pk%-*} ${pk#*-}; done
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/resident_benchmark /tmp/vZ.cubin
nvdisasm -g -c /tmp/vZ.cubin 2>&1 | gzip > /tmp/resident.sass.gz
echo "sass: $(zcat /tmp/resident.sass.gz | wc -l) lines"
for k in fp8:m16n8k64.row.col.f32.e4m3.e4m3.f32 k16_f16:m16n8k16.row.col.f32.f16.f16.f32; do
  name=${k%%:*}; form=${k#*:}
  s=$(date +%s)
  timeout 150 ncu --clock-control none -k "regex:lean_$name\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats -o /tmp/prof-$name $G/resident_benchmark --form $form --host-cases 0 --seconds 0.05 > /tmp/ncu-$name.txt 2>&1
  echo "== ncu ($name): exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$name.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$name.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/t3/source3-$name.csv.gz
  python3 $E/2026-11-23d-phases/lines.py /tmp/t3/source3-$name.csv.gz /tmp/resident.sass.gz 1048576 mmasp_resident_lean_$name 80 > /tmp/t3/lines3-$name.txt 2>&1
  python3 $E/2026-11-28g-stalls/opcodes.py /tmp/t3/source3-$name.csv.gz 1048576 45 > /tmp/t3/opcodes3-$name.txt 2>&1
  head -16 /tmp/t3/lines3-$name.txt; sed -n 2,3p /tmp/t3/opcodes3-$name.txt
done
rm -f /tmp/t3/source3-*.csv.gz
tar czf $OUT/call3.tgz -C /tmp/t3 .
s=$(date +%s)
timeout 320 $G/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test3-ptx.txt 2>&1
echo "gpu_resident_test (PTX image, vZ): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test3-ptx.txt
cp /tmp/t3/call3.log $OUT/call3.log
