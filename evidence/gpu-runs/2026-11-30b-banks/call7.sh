#!/bin/bash
# Issue #28, thirty-second session, seventh call, a lead for the next round (not committed): fp8-only cubins from the
# committed tree (cur: its fp8 kernel, .text byte for byte the full build's) and two variants (gx.diff): gx, the turned
# gather with constant shifts and one rotate a register (funnel shift) in place of a variable shift a code; gxm, gx
# and the metadata's eight nibbles a lane gathered turned as well (-DMMASP_TURNED_METADATA). One resident_benchmark
# (the committed build's, as rbc), cur gx gxm gxm gx cur.
# From the repository root with gpu-carry21/g carried (all.tar.xz: rbc and the cubins).
set -u
G=$PWD/gpu-carry21/g
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rbc) || exit 1
T=/tmp/t7 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rbc --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur; run 1 gx; run 1 gxm; run 2 gxm; run 2 gx; run 2 cur
tar czf $OUT/call7.tgz -C $T .
