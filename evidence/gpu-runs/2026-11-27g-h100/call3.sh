#!/bin/bash
# Issue #28, fourteenth session, third call (an H100): D = a round's cases handed to the block's warps in order of
# profile (each lane finds one case's profile, ballots rank them, warp w takes rank (w % 4) * warps / 4 + w / 4), so
# that the warps of one scheduler, which wait for each other at the phase barrier (call2: 16 % of m16n8k32 bf16's
# stalls), hold cases of one profile where they can. A variant cubin of 9571a4e's kernels loaded by nb with
# --image-file; float forms (the barrier is theirs), base, D, D, base; then gpu_resident_test's cubin cases with D.
# Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz nb/gpu_resident_test.xz D.cubin.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-D p2-D p2-base; do
  case ${pk#*-} in base) o="";; D) o="--image-file $G/D.cubin";; esac
  s=$(date +%s)
  $G/nb/resident_benchmark $o --form .f --host-cases 0 --seconds 0.15 > /tmp/t/table3-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table3-$pk.txt) not measured; $(head -1 /tmp/t/table3-$pk.txt | grep -o 'image [^;]*')"
done
tar czf $OUT/tables3.tgz -C /tmp/t .
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/D.cubin timeout 200 $G/nb/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test3.txt 2>&1
echo "gpu_resident_test (cubin cases, D): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test3.txt | head
