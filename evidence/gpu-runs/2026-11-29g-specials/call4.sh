#!/bin/bash
# Issue #28, twenty-ninth session, fourth call, for the next round: vH (helpers-unmeasured.diff on e20360e:
# Block::sum_is_read() and Block::result_is_nan(), one rule for finish() and finish_code(); the same results, but every
# kernel's .text moved) against vZ (e20360e's cubin), run by one resident_benchmark (f67c684's, its cubin zeroed)
# --image-file: the f16/bf16 and fp8 forms vZ vH vH vZ, every form vZ vH; gpu_resident_test (a fresh clone of
# e20360e's, its cubin zeroed) on vH's cubin. One tgz back.
# From the repository root with gpu-carry18/e carried (resident_benchmark.xz; bins.tar.xz: vZ.cubin, vH.cubin,
# gpu_resident_test).
set -u
G=$PWD/gpu-carry18/e
(cd $G && xz -d -f -k resident_benchmark.xz && chmod +x resident_benchmark && xz -d -c bins.tar.xz | tar x && chmod +x gpu_resident_test) || exit 1
rm -rf /tmp/t4 && mkdir -p /tmp/t4
exec > >(tee -a "/tmp/t4/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/resident_benchmark --image-file $G/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t4/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t4/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t4/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t4/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 vZ m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-vZ 1-vH 2-vH 2-vZ; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-vZ 1-vH 2-vH 2-vZ; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-vZ 1-vH; do run all ${pk%-*} ${pk#*-}; done
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/vH.cubin timeout 120 $G/gpu_resident_test --gtest_filter='*cubin*' > /tmp/t4/gpu_resident_test4-vH.txt 2>&1
echo "gpu_resident_test (cubin, vH): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/t4/gpu_resident_test4-vH.txt
tar czf $OUT/tables4.tgz -C /tmp/t4 .
