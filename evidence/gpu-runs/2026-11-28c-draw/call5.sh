#!/bin/bash
# Issue #28, eighteenth session, fifth call: vC = na's source (5c48267's kernels) with draw_run_of_width's slot 0, the
# rest of the current word, taken by the same unrolled loop as every output (no separate branch for lane 0; where
# from_word is 0 the slots start at 1), a variant cubin run by na's binary with --image-file, against na's embedded
# cubin: every form na, vC, vC, na; then gpu_resident_test's cubin cases with vC (MMASP_RESIDENT_CUBIN_FILE). Run
# from the repository root with gpu-carry12 carried (na/, variants/vC.cubin.xz).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k na/resident_benchmark.xz na/gpu_resident_test.xz variants/vC.cubin.xz && chmod +x na/*) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-na p1-vC p2-vC p2-na; do
  k=${pk#*-}
  extra=""; [ $k = vC ] && extra="--image-file $G/variants/vC.cubin"
  s=$(date +%s)
  $G/na/resident_benchmark $extra --host-cases 0 --seconds 0.15 > /tmp/t/table5-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table5-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table5-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables5.tgz -C /tmp/t .
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/variants/vC.cubin timeout 100 $G/na/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test5c.txt 2>&1
echo "gpu_resident_test (cubin cases, vC): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test5c.txt
