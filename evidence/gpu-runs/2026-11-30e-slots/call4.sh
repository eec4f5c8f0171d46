#!/bin/bash
# Issue #28, thirty-fifth session, fourth call, on the build of the working tree (the fp8 and narrow f16 kernels' B
# words in two planes of halves; every other kernel's .text as recorded) and bf3c2b1's (hd): (1) the eight f16 forms,
# hd new new hd (the k16 f16 kernel's code unchanged, the narrow f16 kernel's moved); (2) gpu_resident_test on the
# build's cubin; (3) mmasp selftest --faults --cases 300 --threads 16; (4) mmasp run --backend gpu --budget 60 --seed 1,
# hd then new, each after a discarded 5 s warm-up of its own build, each with the modules its own mmasp prepare
# --target sm_90a made. One tgz back.
# From the repository root with gpu-carry24/p (all.tar.xz: rb, bf3c2b1's), gpu-carry24/h (all.tar.xz: mmasp-hd,
# modules-hd, bf3c2b1's) and gpu-carry24/m (all.tar.xz: rb, gpu_resident_test, mmasp, modules, the build's) carried.
set -u
H=$PWD/gpu-carry24/p
HM=$PWD/gpu-carry24/h
G=$PWD/gpu-carry24/m
R=$PWD
(cd $H && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
(cd $HM && xz -d -c all.tar.xz | tar x && chmod +x mmasp-hd) || exit 1
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb gpu_resident_test mmasp) || exit 1
T=/tmp/t4 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  b=$G/rb; [ "$2" = hd ] && b=$H/rb
  $b --form .f16.f16. --host-cases 0 --seconds 0.15 > $T/f16-$1-$2.txt 2>&1
  echo "f16 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/f16-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/f16-$1-$2.txt) with deviations; $(grep -c '^mma' $T/f16-$1-$2.txt) forms; $(grep 'SM clock' $T/f16-$1-$2.txt | cut -c1-60)"
}
run 1 hd; run 1 new; run 2 new; run 2 hd
s=$(date +%s)
timeout 90 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test4-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test4-cubin.txt
s=$(date +%s)
timeout 150 $G/mmasp selftest --faults --cases 300 --threads 16 > $T/selftest4.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest4.txt
budget() {  # name binary modules
  W=/tmp/b-warm-$1 && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $2 run --backend gpu --modules $3 --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "warm-up $1: exit $?"
  W=/tmp/b-$1 && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $2 run --backend gpu --modules $3 --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "mmasp run --budget 60 ($1): exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $T/budget60-$1-summary4.md; gzip -c r/run.json > $T/budget60-$1-run4.json.gz
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
}
budget hd $HM/mmasp-hd $HM/modules-hd
budget new $G/mmasp $G/modules
tar czf $OUT/call4.tgz -C $T .
