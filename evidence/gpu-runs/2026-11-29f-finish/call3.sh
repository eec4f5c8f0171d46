#!/bin/bash
# Issue #28, twenty-eighth session, third call: a variant (vP: the k16 f16 kernel judges two elements of a row at a
# time, as the fp8 and narrow-over-codes kernels do; kPairsCompiled with kF16Words) against fn (8c3c2a8's cubin), run
# by fn's resident_benchmark (stripped, its own cubin zeroed) --image-file: the f16 and bf16 forms fn vP vP fn fn vP;
# then gpu_resident_test on vP's cubin and the rare fault on vP's cubin. One tgz back.
# From the repository root with gpu-carry17/p carried (resident_benchmark.xz, gpu_resident_test.xz, cubins.tar.xz).
set -u
G=$PWD/gpu-carry17/p
(cd $G && xz -d -f -k resident_benchmark.xz gpu_resident_test.xz && chmod +x resident_benchmark gpu_resident_test && xz -d -c cubins.tar.xz | tar x) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t3 && mkdir -p /tmp/t3
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/resident_benchmark --image-file $G/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t3/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t3/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t3/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 fn m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-fn 1-vP 2-vP 2-fn 3-fn 3-vP; do run f16 ${pk%-*} ${pk#*-} f16; done
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/vP.cubin timeout 120 $G/gpu_resident_test --gtest_filter='*cubin*' > /tmp/t3/gpu_resident_test3-vP.txt 2>&1
echo "gpu_resident_test (cubin, vP): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/t3/gpu_resident_test3-vP.txt
s=$(date +%s)
timeout 100 $G/resident_benchmark --image-file $G/vP.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/t3/rare3-vP.txt 2>&1
echo "rare fault (vP): exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/t3/rare3-vP.txt
tar czf $OUT/tables3.tgz -C /tmp/t3 .
