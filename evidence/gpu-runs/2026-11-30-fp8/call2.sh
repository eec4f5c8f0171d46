#!/bin/bash
# Issue #28, thirty-first session, second call: fp8-only cubins (every other kernel's body emptied, the fp8 kernel's
# .text byte for byte the build's where the source is: base) of variants of the fp8 kernel, alternated in one
# resident_benchmark (a6f59d0's) --image-file on the eight fp8 forms: g8, g12 = phase groups of 3 and 2 warps
# (warp % 8, warp % 12) instead of 6 (warp % 4); j2, j8, j16 = the fp8 judge's blocks walked in groups of 2, 8, 16
# products unrolled instead of 4 (for_fixed_block's kGroup); and base with --phase-barrier off. One tgz back.
# From the repository root with gpu-carry20/d carried (bins.tar.xz: rb; cubins2.tar.xz: the cubins; solid xz).
set -u
G=$PWD/gpu-carry20/d
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb && xz -d -c cubins2.tar.xz | tar x) || exit 1
rm -rf /tmp/t2 && mkdir -p /tmp/t2
exec > >(tee -a "/tmp/t2/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [extra options]
  s=$(date +%s)
  k=$3; shift 3
  $G/rb --image-file $G/${k%-off}.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 "$@" > /tmp/t2/$P-$PASS-$k.txt 2>&1
  echo "$P $PASS-$k: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/$P-$PASS-$k.txt) not measured; $(grep -c DEVIATIONS /tmp/t2/$P-$PASS-$k.txt) with deviations; $(grep 'SM clock' /tmp/t2/$P-$PASS-$k.txt | cut -c1-70)"
}
P=fp8
PASS=0; run x x base
PASS=1; for k in base g8 g12 j2 j8 j16; do run x x $k; done; run x x base-off --phase-barrier off
PASS=2; run x x base-off --phase-barrier off; for k in j16 j8 j2 g12 g8 base; do run x x $k; done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
