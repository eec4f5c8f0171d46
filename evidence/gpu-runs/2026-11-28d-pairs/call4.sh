#!/bin/bash
# Issue #28, nineteenth session, fourth call: the pairs in the lean kernels too, with fewer products unrolled at a time
# than one element takes (np's lean kernels, 64 registers, held two elements' 8-product groups and lost): vH = ng's
# source (46465a7) with kPairsCompiled in every lean kernel and the pair judge's one-block groups of 4; vI the same with
# groups of 2. Variant cubins run by ng's binary with --image-file, against ng's embedded cubin: every form ng, vH, vI,
# vI, vH, ng; then gpu_resident_test's cubin cases with each variant (MMASP_RESIDENT_CUBIN_FILE). Run from the
# repository root with gpu-carry12 carried (ng/, variants/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ng/resident_benchmark.xz ng/gpu_resident_test.xz variants/vH.cubin.xz variants/vI.cubin.xz && chmod +x ng/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-ng p1-vH p1-vI p2-vI p2-vH p2-ng; do
  k=${pk#*-}
  extra=""; [ $k != ng ] && extra="--image-file $G/variants/$k.cubin"
  s=$(date +%s)
  $G/ng/resident_benchmark $extra --host-cases 0 --seconds 0.15 > /tmp/t/table4-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table4-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table4-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables4.tgz -C /tmp/t .
for k in vH vI; do
  s=$(date +%s)
  MMASP_RESIDENT_CUBIN_FILE=$G/variants/$k.cubin timeout 60 $G/ng/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test4-$k.txt 2>&1
  echo "gpu_resident_test (cubin cases, $k): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test4-$k.txt
done
