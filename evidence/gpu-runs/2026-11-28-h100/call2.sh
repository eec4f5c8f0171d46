#!/bin/bash
# Issue #28, thirteenth session, second call (an H100): the narrow judge's tag at the top of an A word (one shift and
# one add find the B word) and its products aligned by one 64-bit shift (narrow::aligned_at), built whole (call1's
# variant cubin could not be measured: the host builds decode_narrow's tables, and ec9d036's host packs them in the
# old layout). nb = this step's build (gpu-carry11/nb), base = ec9d036's (gpu-carry11/rb: its kernels are d1e2216's
# byte for byte): every form base, nb, nb, base; then gpu_resident_test with nb. Run from the repository root with
# gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k rb.xz nb/*.xz && chmod +x rb nb/*)
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-nb p2-nb p2-base; do
  case ${pk#*-} in base) b=$G/rb;; nb) b=$G/nb/resident_benchmark;; esac
  s=$(date +%s)
  $b --host-cases 0 --seconds 0.15 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
s=$(date +%s)
timeout 240 $G/nb/gpu_resident_test > $OUT/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test2.txt | head
