#!/bin/bash
# Issue #28, thirty-third session, fourth call, on the working tree's build (the fp8 kernel's value copy: the
# cancellation C by fp8_cancelled_c_row, the judge's A columns from the copied chunk column table; its fp8 .text byte
# for byte call2's cz3 but for the copy loop): (1) the eight fp8 forms, one resident_benchmark (the build's, as rb; its
# dump check compares 64 cases of each form with the host's): base33 (fb3de22's fp8 kernel), new (the build's own
# cubin), r2 (new with the cancellation's product loop unrolled by 4), r3 (new with each block round's cases in check
# mode ordered cancellation profile first, each phase group taking consecutive ones, the groups' turns rotating),
# r23 (both); (2) gpu_resident_test on the build's cubin (device cases equal host cases for every pair).
# From the repository root with gpu-carry22/d carried (all.tar.xz: rb, gpu_resident_test and the cubins).
set -u
G=$PWD/gpu-carry22/d
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb gpu_resident_test) || exit 1
T=/tmp/t4 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  image=""; [ "$2" != new ] && image="--image-file $G/$2.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 base33; run 1 new; run 1 r2; run 1 r3; run 1 r23; run 2 r23; run 2 r3; run 2 r2; run 2 new; run 2 base33
s=$(date +%s)
timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test4-cubin.txt 2>&1
echo "gpu_resident_test (cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $T/gpu_resident_test4-cubin.txt
tar czf $OUT/call4.tgz -C $T .
