#!/bin/bash
# Issue #28, thirteenth session, eighth call (an H100): v4 = a variant cubin with only call7's second change
# (sum_product_32's m as the low 16 bits of one three-way difference; the decoders as in 06f14a8), loaded by 06f14a8's
# benchmark (nb) with --image-file, against nb's embedded image: every form base, v4, v4, base; then
# gpu_resident_test's cubin cases with v4 (MMASP_RESIDENT_CUBIN_FILE). Run from the repository root with gpu-carry11
# carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz nb/gpu_resident_test.xz v4.cubin.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-v4 p2-v4 p2-base; do
  case ${pk#*-} in base) o="";; v4) o="--image-file $G/v4.cubin";; esac
  s=$(date +%s)
  $G/nb/resident_benchmark $o --host-cases 0 --seconds 0.15 > /tmp/t/table8-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table8-$pk.txt) not measured; $(head -1 /tmp/t/table8-$pk.txt | grep -o 'image [^;]*')"
done
tar czf $OUT/tables8.tgz -C /tmp/t .
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/v4.cubin timeout 200 $G/nb/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test8.txt 2>&1
echo "gpu_resident_test (cubin cases, v4): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test8.txt | head
