#!/bin/bash
# Issue #28, twenty-eighth session, fifth call, for the next round: a variant (vF: narrow::Block's three special-class
# bools as one word, specials_, tested once where the judge asks whether any is set) against fn (8c3c2a8's cubin), run
# by fn's resident_benchmark (stripped, its own cubin zeroed) --image-file: the f16 and bf16 forms fn vF vF fn, the
# eight sm_90 fp8 forms fn vF vF fn, the tf32 forms fn vF; gpu_resident_test on vF's cubin. One tgz back.
# From the repository root with gpu-carry17/p carried (resident_benchmark.xz, gpu_resident_test.xz, cubins.tar.xz:
# fn.cubin and vF.cubin).
set -u
G=$PWD/gpu-carry17/p
(cd $G && xz -d -f -k resident_benchmark.xz gpu_resident_test.xz && chmod +x resident_benchmark gpu_resident_test && xz -d -c cubins.tar.xz | tar x) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t5 && mkdir -p /tmp/t5
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/resident_benchmark --image-file $G/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t5/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t5/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t5/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t5/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 fn m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-fn 1-vF 2-vF 2-fn; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-fn 1-vF 2-vF 2-fn; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-fn 1-vF; do run tf32 ${pk%-*} ${pk#*-} tf32; done
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/vF.cubin timeout 120 $G/gpu_resident_test --gtest_filter='*cubin*' > /tmp/t5/gpu_resident_test5-vF.txt 2>&1
echo "gpu_resident_test (cubin, vF): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/t5/gpu_resident_test5-vF.txt
tar czf $OUT/tables5.tgz -C /tmp/t5 .
