#!/bin/bash
# Issue #28, thirty-third session, fifth call: fp8-only variants of 5b5d3c9's fp8 kernel (new: the
# build's own cubin, byte for byte call4's new), alternated three times in one resident_benchmark (the build's, as rb;
# its dump check compares 64 cases of each form with the host's): r4 (the cancellation's products four stored
# elements at a time, A's four codes by one 16-byte load, the columns and B's codes of the four loaded before the
# multiply-adds), r5 (the cancellation's loop under #pragma unroll 8; call4's r2, unroll 4, was byte for byte new),
# r7 (the draw's nibble lookups from a copy of the chunk nibble table in static shared memory).
# From the repository root with gpu-carry22/e carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry22/e
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t5 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  image=""; [ "$2" != new ] && image="--image-file $G/$2.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 new; run 1 r4; run 1 r5; run 1 r7; run 2 r7; run 2 r5; run 2 r4; run 2 new; run 3 r4; run 3 new; run 3 r7; run 3 r5
tar czf $OUT/call5.tgz -C $T .
