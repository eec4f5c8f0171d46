#!/bin/bash
# Issue #28, thirty-fifth session, third call, on the build of the working tree (the fp8 kernel's B words in two planes
# of halves; every other kernel's .text as recorded): (1) the eight fp8 forms, bf3c2b1's resident_benchmark (hd, its
# own embedded cubin) against the build's (new), hd new new hd; (2) gpu_resident_test on the build's cubin; (3) the
# rare fault (1 case in 10^8, 60 s); (4) mmasp selftest --faults --cases 300 --threads 16; (5) the f16 forms on the
# fp8, narrow f16 and k16 f16 kernels as built here (m35) against f16p, whose f16 kernels take B's f32 words in two
# planes too, m35 f16p f16p m35, in the build's resident_benchmark. One tgz back.
# From the repository root with gpu-carry24/p (all.tar.xz: rb, bf3c2b1's) and gpu-carry24/n (all.tar.xz: rb,
# gpu_resident_test, mmasp, the build's; m35.cubin, f16p.cubin) carried.
set -u
H=$PWD/gpu-carry24/p
G=$PWD/gpu-carry24/n
(cd $H && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb gpu_resident_test mmasp) || exit 1
T=/tmp/t3 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  b=$G/rb; [ "$2" = hd ] && b=$H/rb
  $b --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep -c '^mma' $T/fp8-$1-$2.txt) forms; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-60)"
}
run 1 hd; run 1 new; run 2 new; run 2 hd
f16() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form .f16.f16. --host-cases 0 --seconds 0.15 > $T/f16-$1-$2.txt 2>&1
  echo "f16 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/f16-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/f16-$1-$2.txt) with deviations; $(grep -c '^mma' $T/f16-$1-$2.txt) forms"
}
f16 1 m35; f16 1 f16p; f16 2 f16p; f16 2 m35
s=$(date +%s)
timeout 90 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test3-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test3-cubin.txt
s=$(date +%s)
timeout 100 $G/rb --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $T/rare3.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/rare3.txt
s=$(date +%s)
timeout 170 $G/mmasp selftest --faults --cases 300 --threads 16 > $T/selftest3.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest3.txt
tar czf $OUT/call3.tgz -C $T .
