#!/bin/bash
# Issue #28, twenty-sixth session, third call: this round's build (nw: G's elements per lane as constants in the k16
# kernels' unrolled packing, I's two nibble draws a lane by shuffles) against HEAD's own cubin (hd, 0cb9a85), every
# form, run by nw's resident_benchmark (stripped, its own cubin zeroed) --image-file, hd nw nw hd; then nw's
# gpu_resident_test on its cubin (device cases equal host cases for every pair, the refusals, many cases without a
# deviation, every catalogue fault), and the rare fault (1 case in 10^8, 60 s) on nw's cubin.
# From the repository root with gpu-carry16 carried (nw/{resident_benchmark,gpu_resident_test}.xz, v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry16
(cd $G && for f in nw/*.xz; do xz -d -f -k $f; done && chmod +x nw/* && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t3 && mkdir -p /tmp/t3
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/nw/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t3/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t3/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t3/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-nw 2-nw 2-hd; do
  run all ${pk%-*} ${pk#*-}
done
tar czf $OUT/tables3.tgz -C /tmp/t3 .
s=$(date +%s)
timeout 120 $G/nw/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test3.txt 2>&1
echo "gpu_resident_test (cubin, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test3.txt
s=$(date +%s)
timeout 100 $G/nw/resident_benchmark --image-file $G/v/nw.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare3.txt 2>&1
echo "rare fault (nw): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare3.txt
