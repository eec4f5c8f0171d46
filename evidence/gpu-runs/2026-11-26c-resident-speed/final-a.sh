#!/bin/bash
# Issue #28, third round, closing measurements (1 of 2): every sm_90 form (selector 0) with s6 (f8f1a47, the kernel
# before this round) and s8 (this round's: step 1's s7 plus narrow samplers' slot tables as bytes), one table after the
# other, on one H100 in one call; then gpu_resident_test on s8. Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k resident_benchmark_s6.xz && for f in s8/*.xz; do xz -d -f -k $f; done; chmod +x resident_benchmark_s6 s8/*)
exec > >(tee -a "$OUT/final-a.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in resident_benchmark_s6 s8/resident_benchmark; do
  name=before; [ $b = s8/resident_benchmark ] && name=after
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-$name.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
export MMASP_BINARY=$G/s8/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s8/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -5; echo "gpu_resident_test $(( $(date +%s) - s )) s"
