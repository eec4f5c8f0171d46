#!/bin/bash
# Issue #28, thirty-fourth session, second call: fp8-only variants of c997a7d's fp8 kernel (hd: its code, byte for byte
# the build's), alternated twice in one resident_benchmark (the build's, as rb; its dump check compares 64 cases of
# each form with the host's): u2 (the draw's loop over a run's outputs under #pragma unroll 2, so that two outputs'
# hashes and lookups overlap), g8 and g16 (the judge's blocks walked by groups of 8 and 16 products instead of 4), u2g8.
# From the repository root with gpu-carry23/b carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/b
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t2 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 hd; run 1 u2; run 1 g8; run 1 u2g8; run 1 g16; run 2 g16; run 2 u2g8; run 2 g8; run 2 u2; run 2 hd
tar czf $OUT/call2.tgz -C $T .
