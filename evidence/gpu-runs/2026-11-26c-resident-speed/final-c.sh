#!/bin/bash
# Issue #28, third round: every sm_90 form (selector 0) with s6 (f8f1a47) and s9 (this round's final kernel: s8 with
# 32-bit fields walked unrotated), one table after the other, on one H100 in one call. Run from the repository root
# with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k resident_benchmark_s6.xz && xz -d -f -k s9/resident_benchmark.xz; chmod +x resident_benchmark_s6 s9/*)
exec > >(tee -a "$OUT/final-c.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in resident_benchmark_s6 s9/resident_benchmark; do
  name=before; [ $b = s9/resident_benchmark ] && name=after
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-final-$name.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
