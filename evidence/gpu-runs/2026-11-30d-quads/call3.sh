#!/bin/bash
# Issue #28, thirty-fourth session, third call: cubins holding the fp8, narrow f16 and k16 f16 kernels (every other
# kernel's body emptied: fp8only.py with three names), alternated in one resident_benchmark (the build's, as rb; its
# dump check compares 64 cases of each form with the host's): hd3 (c997a7d's code), g83 (the fp8 judge's blocks by
# groups of 8 products), nf3 (f32 words with Inf and NaN as kF32Special, bit 29 of the low half, so that pass 1's
# largest sum says whether the special pass runs: no OR of flags a product; the fp8 and both f16 kernels), nfg83 (both).
# From the repository root with gpu-carry23/c carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/c
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t3 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix form pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$4.cubin --form $2 --host-cases 0 --seconds 0.15 > $T/$1-$3-$4.txt 2>&1
  echo "$1 $3-$4: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/$1-$3-$4.txt) not measured; $(grep -c DEVIATIONS $T/$1-$3-$4.txt) with deviations; $(grep -c '^mma' $T/$1-$3-$4.txt) forms; $(grep 'SM clock' $T/$1-$3-$4.txt | cut -c1-60)"
}
fp8=m16n8k64.row.col.f32.e; f16=.f16.f16.
for v in hd3 g83 nf3 nfg83; do run fp8 $fp8 1 $v; done
for v in nfg83 nf3 g83 hd3; do run fp8 $fp8 2 $v; done
run f16 $f16 1 hd3; run f16 $f16 1 nf3; run f16 $f16 2 nf3; run f16 $f16 2 hd3
tar czf $OUT/call3.tgz -C $T .
