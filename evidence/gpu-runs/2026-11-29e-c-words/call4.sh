#!/bin/bash
# Issue #28, twenty-seventh session, fourth call: the special pass on f32 words as one f32 sum an element (sp: the
# build of this change) against the C-words build (cw: 1406919's cubin), every form, run by sp's resident_benchmark
# (stripped, its own cubin zeroed) --image-file, cw sp sp cw; then sp's gpu_resident_test on its cubin and the rare
# fault (1 case in 10^8, 60 s) on sp's cubin.
# From the repository root with gpu-carry16 carried (nw/{resident_benchmark,gpu_resident_test}.xz, v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry16
(cd $G && for f in nw/*.xz; do xz -d -f -k $f; done && chmod +x nw/* && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t4 && mkdir -p /tmp/t4
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/nw/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t4/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t4/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t4/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t4/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 cw m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-cw 1-sp 2-sp 2-cw; do
  run all ${pk%-*} ${pk#*-}
done
tar czf $OUT/tables4.tgz -C /tmp/t4 .
s=$(date +%s)
timeout 120 $G/nw/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test4.txt 2>&1
echo "gpu_resident_test (cubin, sp): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test4.txt
s=$(date +%s)
timeout 100 $G/nw/resident_benchmark --image-file $G/v/sp.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare4.txt 2>&1
echo "rare fault (sp): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare4.txt
