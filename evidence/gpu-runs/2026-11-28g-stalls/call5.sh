#!/bin/bash
# Issue #28, twenty-second session, fifth call: smaller phase-barrier groups. nc = this session's kernels (8dadbe3, the
# cubin by --image-file too); vG8 and vG12 = the same source with the barrier's group warp % 8 (two groups of three
# fp8 warps a scheduler, four of the lean kernel's eight) and warp % 12 (groups of two) instead of warp % 4 (every warp
# of a scheduler): resident_kernel.cuh's phase_group line alone, variant cubins run by nc's resident_benchmark
# --image-file. The fp8 forms, m16n8k16 and m16n8k32 f16->f32, alternated nc, vG8, vG12, vG12, vG8, nc. Run from the
# repository root with gpu-carry13 carried (nc/resident_benchmark.xz, vg/*.cubin.xz).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nc/*.xz vg/*.xz && chmod +x nc/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t5 && mkdir -p /tmp/t5
for pk in 1-nc 1-vG8 1-vG12 2-vG12 2-vG8 2-nc; do
  k=${pk#*-}
  for f in .e m16n8k16.row.col.f32.f16.f16.f32 m16n8k32.row.col.f32.f16.f16.f32; do
    s=$(date +%s)
    $G/nc/resident_benchmark --image-file $G/vg/$k.cubin --form $f --host-cases 0 --seconds 0.15 > /tmp/t5/t5${f:0:8}-$pk.txt 2>&1
    echo "$f $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t5/t5${f:0:8}-$pk.txt) not measured; $(grep 'SM clock' /tmp/t5/t5${f:0:8}-$pk.txt | cut -c1-70)"
  done
done
tar czf $OUT/tables5.tgz -C /tmp/t5 .
