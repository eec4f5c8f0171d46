#!/bin/bash
# Issue #28, thirty-third session, eighth call, on the build of the working tree after 5b5d3c9 (the fp8 kernel's trap
# test as fp8_a_bytes_contiguous_of_lane, kFp8Codes: its prologue's code moved, .text 6663707c…; every other kernel's
# as recorded): (1) the eight fp8 forms, 5b5d3c9's fp8 cubin (a90, call4's new) against the build's own (new), one
# resident_benchmark (the build's) a90 new new a90; (2) gpu_resident_test on the build's cubin; (3) mmasp selftest
# --faults --cases 300 --threads 16; (4) ncu on the new fp8 kernel (annotate.py); (5) mmasp run --backend gpu
# --budget 60 --seed 1 after a discarded 5 s warm-up. One tgz back.
# From the repository root with gpu-carry22/h carried (all.tar.xz: rb, gpu_resident_test, mmasp, a90.cubin and mmasp
# prepare --target sm_90a's modules).
set -u
G=$PWD/gpu-carry22/h
E=$PWD/evidence/gpu-runs
R=$PWD
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb gpu_resident_test mmasp) || exit 1
T=/tmp/t8 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass kernel
  s=$(date +%s)
  image=""; [ "$2" != new ] && image="--image-file $G/$2.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 a90; run 1 new; run 2 new; run 2 a90
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test8-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test8-cubin.txt
s=$(date +%s)
timeout 150 $G/mmasp selftest --faults --cases 300 --threads 16 > $T/selftest8.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest8.txt
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/rb /tmp/new.cubin
nvdisasm -g -c /tmp/new.cubin 2>&1 | gzip > /tmp/new.sass.gz
s=$(date +%s)
timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
  -o /tmp/prof-fp8 $G/rb --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-fp8.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-fp8.txt | cut -c1-160 | head
ncu -i /tmp/prof-fp8.ncu-rep --page details > $T/details8-fp8.txt 2>&1
ncu -i /tmp/prof-fp8.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-fp8.csv.gz
python3 $E/2026-11-29h-branches/annotate.py /tmp/source-fp8.csv.gz /tmp/new.sass.gz 1048576 mmasp_resident_lean_fp8 2>&1 | gzip > $T/annotated8-fp8.txt.gz
grep -E "Warp Cycles Per Issued|Eligible Warps|Issued Warp" $T/details8-fp8.txt
W=/tmp/b-warm && rm -rf $W && mkdir -p $W && cd $W
timeout 30 $G/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "warm-up: exit $?"
W=/tmp/b-new && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 90 $G/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md $T/budget60-new-summary8.md; gzip -c r/run.json > $T/budget60-new-run8.json.gz
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
cd $R
tar czf $OUT/call8.tgz -C $T .
