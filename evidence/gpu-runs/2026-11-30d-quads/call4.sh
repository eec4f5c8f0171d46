#!/bin/bash
# Issue #28, thirty-fourth session, fourth call, on the build of the working tree (f32 words' Inf and NaN as
# kF32Special, no OR of flags a product in pass 1; the fp8 judge's blocks by groups of 8; the fp8, narrow f16 and k16
# f16 kernels' code moved, every other kernel's as recorded): (1) the eight fp8 and eight f16 forms, c997a7d's
# resident_benchmark (hd, its own embedded cubin, host tables of the old word format) against the build's (new),
# hd new new hd; (2) gpu_resident_test on the build's cubin; (3) the rare fault (1 case in 10^8, 60 s; it runs on the
# k16 f16 kernel, which moved). One tgz back.
# From the repository root with gpu-carry23/d carried (all.tar.xz: rb, rb-hd, gpu_resident_test).
set -u
G=$PWD/gpu-carry23/d
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb rb-hd gpu_resident_test) || exit 1
T=/tmp/t4 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix form pass variant
  s=$(date +%s)
  b=$G/rb; [ "$4" = hd ] && b=$G/rb-hd
  $b --form $2 --host-cases 0 --seconds 0.15 > $T/$1-$3-$4.txt 2>&1
  echo "$1 $3-$4: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/$1-$3-$4.txt) not measured; $(grep -c DEVIATIONS $T/$1-$3-$4.txt) with deviations; $(grep -c '^mma' $T/$1-$3-$4.txt) forms; $(grep 'SM clock' $T/$1-$3-$4.txt | cut -c1-60)"
}
fp8=m16n8k64.row.col.f32.e; f16=.f16.f16.
run fp8 $fp8 1 hd; run fp8 $fp8 1 new; run fp8 $fp8 2 new; run fp8 $fp8 2 hd
run f16 $f16 1 hd; run f16 $f16 1 new; run f16 $f16 2 new; run f16 $f16 2 hd
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test4-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test4-cubin.txt
s=$(date +%s)
timeout 100 $G/rb --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $T/rare4.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/rare4.txt
tar czf $OUT/call4.tgz -C $T .
