#!/bin/bash
# Issue #28, thirteenth session, seventh call (an H100): v3 = a variant cubin from this step's tree (the narrow words
# made in one place, narrow_word and narrow_a_word, for both decoders; and sum_product_32's m as the low 16 bits of
# one three-way difference), loaded by 06f14a8's benchmark (nb) with --image-file (the tables mean what they meant),
# against nb's embedded image: every form base, v3, v3, base; then gpu_resident_test's cubin cases with v3
# (MMASP_RESIDENT_CUBIN_FILE). Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz nb/gpu_resident_test.xz v3.cubin.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-v3 p2-v3 p2-base; do
  case ${pk#*-} in base) o="";; v3) o="--image-file $G/v3.cubin";; esac
  s=$(date +%s)
  $G/nb/resident_benchmark $o --host-cases 0 --seconds 0.15 > /tmp/t/table7-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table7-$pk.txt) not measured; $(head -1 /tmp/t/table7-$pk.txt | grep -o 'image [^;]*')"
done
tar czf $OUT/tables7.tgz -C /tmp/t .
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/v3.cubin timeout 200 $G/nb/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test7.txt 2>&1
echo "gpu_resident_test (cubin cases, v3): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test7.txt | head
