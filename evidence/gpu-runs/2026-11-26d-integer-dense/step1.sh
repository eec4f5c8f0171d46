#!/bin/bash
# Issue #28, fourth round, step 1: the dense integer judge (s10: dp4a over bytes) against s9 (the third round's
# kernel, 0bed3d3) on every integer form (selector 0), one table after the other, then gpu_resident_test with s10.
# On one H100 in one call; run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s9/*.xz s10/*.xz; do xz -d -f -k $f; done; chmod +x s9/* s10/*)
exec > >(tee -a "$OUT/step1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s9 s10; do
  echo "== $k, every integer form"; s=$(date +%s)
  $G/$k/resident_benchmark --form .s32. --host-cases 0 --seconds 0.2 > $OUT/table-integer-$k.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s10/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 240 $G/s10/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -6; echo "gpu_resident_test (s10) $(( $(date +%s) - s )) s"
