#!/bin/bash
# Issue #28, thirty-first session, eighth call, a lead for the next round (not kept): how much the draw's 12-bit slot
# tables cost the fp8 kernel through L1. slot = the committed fp8 kernel with two of them (profiles 1 and 2 of the e4m3
# pairs, 40 % of the cases; the arena's words 1245 and 2334 on, 4 KB each) copied to static shared memory too and read
# there (slot-tables.diff, -DMMASP_SLOT_COPY; the 10 KB left beside the copies holds two of the five), against the
# committed build's own cubin (fin), one resident_benchmark (the committed build's) --image-file, fin slot slot fin on
# the eight fp8 forms. One tgz back. From the repository root with gpu-carry20/f carried (all.tar.xz: rbn, slot.cubin).
set -u
G=$PWD/gpu-carry20/f
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rbn) || exit 1
T=/tmp/t8 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass kernel
  s=$(date +%s)
  image=""; [ "$2" = slot ] && image="--image-file $G/slot.cubin"
  $G/rbn $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 0 fin; run 1 fin; run 1 slot; run 2 slot; run 2 fin
tar czf $OUT/tables8.tgz -C $T .
