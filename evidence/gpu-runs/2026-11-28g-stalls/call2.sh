#!/bin/bash
# Issue #28, twenty-second session, second call: the phase barrier (Launch::phase_barrier; resident_benchmark
# --phase-barrier float|off) for the eight fp8 forms and m16n8k16 f16->f32, now that ncu (call1) puts 21 % of the fp8
# kernel's stall samples at it. Main's build at 147cb0d (cur), the choices alternated float, off, off, float, float, off.
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k cur/*.xz && chmod +x cur/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 && mkdir -p /tmp/t2
for pk in 1-float 1-off 2-off 2-float 3-float 3-off; do
  k=${pk#*-}
  for f in .e m16n8k16.row.col.f32.f16.f16.f32; do
    s=$(date +%s)
    $G/cur/resident_benchmark --form $f --phase-barrier $k --host-cases 0 --seconds 0.15 > /tmp/t2/table2-${f:0:4}-$pk.txt 2>&1
    echo "$f $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/table2-${f:0:4}-$pk.txt) not measured; $(grep 'SM clock' /tmp/t2/table2-${f:0:4}-$pk.txt | cut -c1-70)"
  done
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
