#!/bin/bash
# Issue #28, twenty-fourth session, first call: what f32 words are worth to the m16n8k16 f16 judge. base = main at
# b06952e's kernels (nvcc from build/generated/resident_kernels_sm_90a.cu: the build's own cubin, every .text section
# the same); v1 = the same source with the k16 kernel's A and B words made f32 words (high half the value's f32 bits
# by cvt, low half the field, Inf/NaN flag and tag as model::narrow::pack_f32 has them) and its one-block judge
# summing products by f32 multiplication (kProductsOfF32Words), for every pair it takes (so its bf16 rows are judged
# wrongly, by design of this variant: only the f16 rows count). Run by main's resident_benchmark --image-file,
# base, v1, v1, base. From the repository root with gpu-carry15 carried.
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k cur/resident_benchmark.xz v/*.xz && chmod +x cur/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel form
  s=$(date +%s)
  $G/cur/resident_benchmark --image-file $G/v/$3.cubin --form $4 --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$4 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 base m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-base 1-v1 2-v1 2-base; do
  run k16 ${pk%-*} ${pk#*-} m16n8k16.row.col.f
done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
