#!/bin/bash
# Issue #28, thirty-second session, fourth call, on the committed build (the fp8 kernel's B and C packed by loads
# turned per lane, bank_spreading_turn; its A by pack_contiguous_bytes; every other kernel's .text byte for byte
# 97acc68's): (1) the eight fp8 forms, 97acc68's cubin (hd, extracted from its resident_benchmark) against the
# build's own (new), one resident_benchmark (the build's) hd new new hd; (2) gpu_resident_test on the cubin; (3) mmasp
# selftest --faults --cases 300 --threads 16; (4) ncu on the new fp8 kernel (annotate.py, wavefronts.py); (5) mmasp
# run --backend gpu --budget 60 --seed 1, the build's mmasp (new) and then 97acc68's (hd), each after a discarded 5 s
# warm-up. One tgz back.
# From the repository root with gpu-carry21/d carried (all.tar.xz: rb, gpu_resident_test, mmasp-new, mmasp-hd,
# hd.cubin and mmasp prepare --target sm_90a's modules; one solid xz).
set -u
G=$PWD/gpu-carry21/d
E=$PWD/evidence/gpu-runs
R=$PWD
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb gpu_resident_test mmasp-new mmasp-hd) || exit 1
T=/tmp/t4 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass kernel
  s=$(date +%s)
  image=""; [ "$2" = hd ] && image="--image-file $G/hd.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 hd; run 1 new; run 2 new; run 2 hd
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test4-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test4-cubin.txt
s=$(date +%s)
timeout 150 $G/mmasp-new selftest --faults --cases 300 --threads 16 > $T/selftest4.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest4.txt
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/rb /tmp/new.cubin
nvdisasm -g -c /tmp/new.cubin 2>&1 | gzip > /tmp/new.sass.gz
s=$(date +%s)
timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
  -o /tmp/prof-fp8 $G/rb --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-fp8.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-fp8.txt | cut -c1-160 | head
ncu -i /tmp/prof-fp8.ncu-rep --page details > $T/details4-fp8.txt 2>&1
ncu -i /tmp/prof-fp8.ncu-rep --page raw --csv 2>&1 | gzip > $T/raw4-fp8.csv.gz
ncu -i /tmp/prof-fp8.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-fp8.csv.gz
python3 $E/2026-11-29h-branches/annotate.py /tmp/source-fp8.csv.gz /tmp/new.sass.gz 1048576 mmasp_resident_lean_fp8 2>&1 | gzip > $T/annotated4-fp8.txt.gz
python3 $E/2026-11-30b-banks/wavefronts.py /tmp/source-fp8.csv.gz /tmp/new.sass.gz 1048576 mmasp_resident_lean_fp8 > $T/wavefronts4-fp8.txt 2>&1
grep "^total a case" $T/wavefronts4-fp8.txt
for k in new hd; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $T/budget60-$k-summary4.md; gzip -c r/run.json > $T/budget60-$k-run4.json.gz
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
tar czf $OUT/call4.tgz -C $T .
