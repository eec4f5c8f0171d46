#!/bin/bash
# Issue #28, twentieth session, third call: variant cubins of ngi's source (19317d5) run by ngi's binary with
# --image-file, against ngi's embedded cubin. vA as in call 2 (C added to an fp8 element by one f32 addition); vC: vA
# and the fp8 kernel's code tables looked up without the mantissa arithmetic (narrow_code_looked_up; the fp8 kernel
# alone differs from ngi's, by its .text SHA-256); vD: vC and sum_product_32's shift found by one three-way subtraction
# and a mask ((top - a - b) & 0xFFFF for top - ((a + b) & 0xFFFF)), in every kernel that judges a narrow pair. The
# eight fp8 forms ngi, vA, vC, vD, vD, vC, vA, ngi; every form ngi, vD, vD, ngi; then gpu_resident_test's cubin
# cases with vC and vD (MMASP_RESIDENT_CUBIN_FILE). Run from the repository root with gpu-carry12 carried (ngi/,
# variants/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ngi/resident_benchmark.xz ngi/gpu_resident_test.xz variants/vA.cubin.xz variants/vC.cubin.xz variants/vD.cubin.xz && chmod +x ngi/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
run_table() {   # pass-kernel, form filter
  local pk=$1 k=${1#*-} extra=""
  [ $k != ngi ] && extra="--image-file $G/variants/$k.cubin"
  local s=$(date +%s)
  $G/ngi/resident_benchmark $extra $2 --host-cases 0 --seconds 0.15 > /tmp/t/table3-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table3-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table3-$pk.txt | cut -c1-70)"
}
for pk in e1-ngi e1-vA e1-vC e1-vD e2-vD e2-vC e2-vA e2-ngi; do run_table $pk "--form .e"; done
for pk in all1-ngi all1-vD all2-vD all2-ngi; do run_table $pk ""; done
tar czf $OUT/tables3.tgz -C /tmp/t .
for k in vC vD; do
  s=$(date +%s)
  MMASP_RESIDENT_CUBIN_FILE=$G/variants/$k.cubin timeout 60 $G/ngi/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test3-$k.txt 2>&1
  echo "gpu_resident_test (cubin cases, $k): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test3-$k.txt
done
