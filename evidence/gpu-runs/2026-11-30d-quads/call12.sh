#!/bin/bash
# Issue #28, thirty-fourth session, twelfth call: fp8-only variants of 5070057's fp8 kernel (cur34: its code, byte for
# byte the build's), alternated in one resident_benchmark (5070057's, as rb; its dump check compares 64 cases of
# each form with the host's): pg2 and pg1 (the fp8 kernel's phase barrier over the warps of two schedulers, and over
# the whole block, instead of each scheduler's own: phase groups warp % 2 and one), two rounds.
# From the repository root with gpu-carry23/i carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/i
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t12 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call12.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur34; run 1 pg2; run 1 pg1; run 2 pg1; run 2 pg2; run 2 cur34
tar czf $OUT/call12.tgz -C $T .
