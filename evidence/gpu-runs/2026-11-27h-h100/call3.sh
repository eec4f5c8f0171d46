#!/bin/bash
# Issue #28, fifteenth session, third call (an H100): two variant cubins of main's kernels (nvcc as CMakeLists.txt runs
# it, from a copy of the tree with one change each), loaded by nf's resident_benchmark with --image-file (the host's
# tables mean the same for them). H (variant-H.patch): the draw's table loads by the read-only path (__ldg: the slot
# codes, the class numbers, the class records, the codes, the nibbles, the profile). J (variant-J.patch): a lane
# draws two stream outputs a round where the fields are 32 bits, so that two outputs' table loads are in flight
# together. The float forms (--form .f), base, H, J, J, H, base. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nf/resident_benchmark.xz cubins/vH.cubin.xz cubins/vJ.cubin.xz && chmod +x nf/*)
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-H p1-J p2-J p2-H p2-base; do
  k=${pk#*-}; img=""; [ $k != base ] && img="--image-file $G/cubins/v$k.cubin"
  s=$(date +%s)
  $G/nf/resident_benchmark --form .f --host-cases 0 --seconds 0.15 $img > /tmp/t/table3-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table3-$pk.txt) not measured"
done
tar czf $OUT/tables3.tgz -C /tmp/t .
