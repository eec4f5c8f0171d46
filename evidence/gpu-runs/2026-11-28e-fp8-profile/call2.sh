#!/bin/bash
# Issue #28, twentieth session, second call: variant cubins of ngi's source (19317d5) run by ngi's binary with
# --image-file, against ngi's embedded cubin. vA: C added to an fp8 f32-D element by one f32 addition of codes
# (model::narrow::f32_sum_code) where ieee_add's exact 128-bit block ran; vB: vA, a block's f32 accumulator found by one
# rounding to a code read back (decode_operand) instead of round_to, and the fp8 kernel's code tables looked up without
# the mantissa arithmetic (narrow_code_looked_up). The eight fp8 forms ngi, vA, vB, vB, vA, ngi; every form ngi, vB;
# then gpu_resident_test's cubin cases with each variant (MMASP_RESIDENT_CUBIN_FILE). Run from the repository root
# with gpu-carry12 carried (ngi/, variants/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ngi/resident_benchmark.xz ngi/gpu_resident_test.xz variants/vA.cubin.xz variants/vB.cubin.xz && chmod +x ngi/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
run_table() {   # name key form-filter
  local pk=$1 k=${1#*-} extra=""
  [ $k != ngi ] && extra="--image-file $G/variants/$k.cubin"
  local s=$(date +%s)
  $G/ngi/resident_benchmark $extra $2 --host-cases 0 --seconds 0.15 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table2-$pk.txt | cut -c1-70)"
}
for pk in e1-ngi e1-vA e1-vB e2-vB e2-vA e2-ngi; do run_table $pk "--form .e"; done
for pk in all1-ngi all1-vB; do run_table $pk ""; done
tar czf $OUT/tables2.tgz -C /tmp/t .
for k in vA vB; do
  s=$(date +%s)
  MMASP_RESIDENT_CUBIN_FILE=$G/variants/$k.cubin timeout 60 $G/ngi/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test2-$k.txt 2>&1
  echo "gpu_resident_test (cubin cases, $k): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test2-$k.txt
done
