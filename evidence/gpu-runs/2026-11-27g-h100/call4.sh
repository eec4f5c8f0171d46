#!/bin/bash
# Issue #28, fourteenth session, fourth call (an H100): E = the pair's tables passed by value in the launch, the
# kernel's __grid_constant__ parameter (Launch::pair), instead of through a pointer to global memory: their fields
# become constant-bank operands, and ptxas spills less in every lean kernel. The host's launch changes with it, so the
# whole build is measured: ne = this step's build, nb = 06f14a8's (its kernels 9571a4e's). Every form nb, ne, ne, nb;
# then gpu_resident_test with ne (both images). Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz ne/resident_benchmark.xz ne/gpu_resident_test.xz && chmod +x nb/* ne/*)
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nb p1-ne p2-ne p2-nb; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table4-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table4-$pk.txt) not measured; $(head -1 /tmp/t/table4-$pk.txt | grep -o 'image [^;]*')"
done
tar czf $OUT/tables4.tgz -C /tmp/t .
s=$(date +%s)
timeout 240 $G/ne/gpu_resident_test > $OUT/gpu_resident_test4.txt 2>&1
echo "gpu_resident_test (ne): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test4.txt | head
