#!/bin/bash
# Issue #28, thirty-second session, eighth call, a lead for the next round (not committed): fp8-only cubins from the
# committed tree (cur: its fp8 kernel, .text byte for byte the full build's) and b2 (b2.diff): the fp8 kernel's phase
# barrier after every second case instead of every case. One resident_benchmark (the committed build's, as rbc),
# cur b2 b2 cur.
# From the repository root with gpu-carry21/h carried (all.tar.xz: rbc and the cubins).
set -u
G=$PWD/gpu-carry21/h
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rbc) || exit 1
T=/tmp/t8 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rbc --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur; run 1 b2; run 2 b2; run 2 cur
tar czf $OUT/call8.tgz -C $T .
