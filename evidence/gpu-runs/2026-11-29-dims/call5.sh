#!/bin/bash
# Issue #28, twenty-third session, fifth call: the kernels of one shape through the PTX image (what a GPU other than
# sm_90 runs, JIT-compiled by the driver), against the sm_90a cubin, on this H200: fx's resident_benchmark --image ptx
# and --image cubin for the fp8 forms and m16n8k16 f16->f32, cubin, ptx, ptx, cubin. Run from the repository root with
# gpu-carry14 carried (fx/resident_benchmark.xz).
set -u
G=$PWD/gpu-carry14
(cd $G && xz -d -f -k fx/resident_benchmark.xz && chmod +x fx/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t5 && mkdir -p /tmp/t5
for pk in 1-cubin 1-ptx 2-ptx 2-cubin; do
  p=${pk%-*}; k=${pk#*-}
  for fm in "fp8 .e" "k16 m16n8k16.row.col.f32.f16"; do
    set -- $fm
    s=$(date +%s)
    $G/fx/resident_benchmark --image $k --form $2 --host-cases 0 --seconds 0.15 > /tmp/t5/$1-$p-$k.txt 2>&1
    echo "$1 $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c DEVIATIONS /tmp/t5/$1-$p-$k.txt) with deviations; $(head -1 /tmp/t5/$1-$p-$k.txt | cut -c1-220)"
  done
done
tar czf $OUT/tables5.tgz -C /tmp/t5 .
