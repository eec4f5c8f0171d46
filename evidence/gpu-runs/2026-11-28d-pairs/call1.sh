#!/bin/bash
# Issue #28, nineteenth session, first call: np = nc (f01ab41, main at the start of this session) with two elements of
# a row of D judged together by the narrow model (judged_narrow_elements<.., 2>: each A word loaded once for both,
# their B words by one 16-byte load) in every kernel that judges narrow pairs; vF = np's source with the pairs in the
# fp8 kernel only, a variant cubin run by np's binary with --image-file. Every form nc, np, vF, vF, np, nc; then
# gpu_resident_test's cubin cases with np. Run from the repository root with gpu-carry12 carried (nc/, np/, variants/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k nc/resident_benchmark.xz np/*.xz variants/vF.cubin.xz && chmod +x nc/* np/*) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nc p1-np p1-vF p2-vF p2-np p2-nc; do
  k=${pk#*-}
  bin=$G/np/resident_benchmark; extra=""
  [ $k = nc ] && bin=$G/nc/resident_benchmark
  [ $k = vF ] && extra="--image-file $G/variants/vF.cubin"
  s=$(date +%s)
  $bin $extra --host-cases 0 --seconds 0.15 > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table1-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
s=$(date +%s)
timeout 100 $G/np/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test1c.txt 2>&1
echo "gpu_resident_test (cubin cases, np): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test1c.txt
