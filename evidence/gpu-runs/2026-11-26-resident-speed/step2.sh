#!/bin/bash
# Step 2 (issue #28), call A: every sm_90 form (selector 0) with the kernel before (008e8ba) and after (this commit),
# one table after the other on one H100; then the GPU resident test on the kernel after.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in *.xz; do xz -d -f $f; done && chmod +x resident_benchmark* gpu_resident_test mmasp)
exec > >(tee -a "$OUT/step2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in resident_benchmark_base resident_benchmark; do
  echo "== $b"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-$b.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s); timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -6; echo "gpu_resident_test $(( $(date +%s) - s )) s"
