#!/bin/bash
# Issue #28, twenty-third session, sixth call, for the next round: what constant dimensions would give the narrow
# kernel (the m16n8k32 f16 and bf16 pairs). vK32 = fx's generated source with only the narrow kernel's launch made
# LaunchOf<FixedCaseDims<case_dims(16, 8, 32, 4, 2)>> (a variant cubin: fx's routing would send it fp8 pairs without
# the sm_90 blocks, which it would refuse, so not a change to keep as it is), run by fx's resident_benchmark
# --image-file against fx's own cubin, fx, vK32, vK32, fx. Run from the repository root with gpu-carry14 carried
# (fx/resident_benchmark.xz, v/fx.cubin.xz, v/vK32.cubin.xz).
set -u
G=$PWD/gpu-carry14
(cd $G && xz -d -f -k fx/resident_benchmark.xz v/*.xz && chmod +x fx/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t6 && mkdir -p /tmp/t6
for pk in 1-fx 1-vK32 2-vK32 2-fx; do
  p=${pk%-*}; k=${pk#*-}
  s=$(date +%s)
  $G/fx/resident_benchmark --image-file $G/v/$k.cubin --form m16n8k32.row.col.f --host-cases 0 --seconds 0.15 > /tmp/t6/k32-$p-$k.txt 2>&1
  echo "k32 $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c DEVIATIONS /tmp/t6/k32-$p-$k.txt) with deviations; $(grep 'SM clock' /tmp/t6/k32-$p-$k.txt | cut -c1-70)"
done
tar czf $OUT/tables6.tgz -C /tmp/t6 .
