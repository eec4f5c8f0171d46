#!/bin/bash
# Issue #28, eighteenth session, second call: call1's nd lost 3-4 % on the three m16n8k16 f32-D forms (f16, bf16, tf32
# k16) while each phase alone ran as fast or faster. Which of its two changes does that: vA (only the metadata noise
# by draw_in_run_of_width<32>) and vB (only C's whole-output loop), variant cubins of nd's source less the other change,
# against nb (main's build) and nd. The 24 float forms nb, nd, vA, vB, vB, vA, nd, nb; nb runs its own binary, the
# others nd's binary with --image-file (vA.cubin, vB.cubin; nd its embedded cubin). Run from the repository root with
# gpu-carry12 carried (base/, new/, variants/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k base/resident_benchmark.xz new/resident_benchmark.xz variants/*.xz && chmod +x base/* new/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nb p1-nd p1-vA p1-vB p2-vB p2-vA p2-nd p2-nb; do
  k=${pk#*-}
  case $k in
    nb) cmd="$G/base/resident_benchmark" ;;
    nd) cmd="$G/new/resident_benchmark" ;;
    *) cmd="$G/new/resident_benchmark --image-file $G/variants/$k.cubin" ;;
  esac
  s=$(date +%s)
  $cmd --form row.col.f --host-cases 0 --seconds 0.15 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table2-$pk.txt | cut -c1-60)"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
