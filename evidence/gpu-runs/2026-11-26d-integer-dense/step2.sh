#!/bin/bash
# TRIED AND DROPPED: s11 is b6bc0ed (reverted in the next commit); the log shows why.
# Issue #28, fourth round, step 2: the lean integer kernel (s11: integer pairs' codes in bytes in shared memory, so 32
# warps fit, in a kernel of their own) against s10 (9b20860), every form (selector 0), one table after the other; then
# gpu_resident_test with s11. On one GPU in one call; run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s10/*.xz s11/*.xz; do xz -d -f -k $f; done; chmod +x s10/* s11/*)
exec > >(tee -a "$OUT/step2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s10 s11; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table-step2-$k.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s11/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 240 $G/s11/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -8; echo "gpu_resident_test (s11) $(( $(date +%s) - s )) s"
