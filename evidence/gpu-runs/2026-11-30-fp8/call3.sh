#!/bin/bash
# Issue #28, thirty-first session, third call: fp8-only cubins (every other kernel's body emptied, the fp8 kernel's
# .text byte for byte the build's where the source is: base) of variants of the fp8 kernel, alternated in one
# resident_benchmark (a6f59d0's) --image-file on the eight fp8 forms: g1, g2 = phase groups of 24 and 12 warps
# (one barrier for the block; warp % 2); w64 = the whole-code f32 table read by one 64-bit load (the host's tables
# are 8-byte aligned there); w64j8 = w64 with the judge's blocks in groups of 8; sm = the fp8 kernel's layout cells
# (packing, metadata and D cells) and whole-code f32 tables copied to static shared memory at the start, read
# there; smj8 = sm with groups of 8. One tgz back.
# From the repository root with gpu-carry20/d carried (bins.tar.xz: rb; cubins3.tar.xz: the cubins; solid xz).
set -u
G=$PWD/gpu-carry20/d
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb && xz -d -c cubins3.tar.xz | tar x) || exit 1
rm -rf /tmp/t3 && mkdir -p /tmp/t3
exec > >(tee -a "/tmp/t3/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [extra options]
  s=$(date +%s)
  k=$3; shift 3
  $G/rb --image-file $G/${k%-off}.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 "$@" > /tmp/t3/$P-$PASS-$k.txt 2>&1
  echo "$P $PASS-$k: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/$P-$PASS-$k.txt) not measured; $(grep -c DEVIATIONS /tmp/t3/$P-$PASS-$k.txt) with deviations; $(grep 'SM clock' /tmp/t3/$P-$PASS-$k.txt | cut -c1-70)"
}
P=fp8
PASS=0; run x x base
PASS=1; for k in base g1 g2 w64 w64j8 sm smj8; do run x x $k; done
PASS=2; for k in smj8 sm w64j8 w64 g2 g1 base; do run x x $k; done
tar czf $OUT/tables3.tgz -C /tmp/t3 .
