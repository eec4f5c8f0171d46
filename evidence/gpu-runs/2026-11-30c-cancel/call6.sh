#!/bin/bash
# Issue #28, thirty-third session, sixth call: fp8-only variants of 5b5d3c9's fp8 kernel (new: the
# build's own cubin, byte for byte call4's new), alternated three times in one resident_benchmark (the build's, as rb;
# its dump check compares 64 cases of each form with the host's): r8 (in check mode each block round's cases ordered
# cancellation profile first, each phase group taking consecutive ones, the groups' turns rotating by round, every
# lane finding one case's seed and profile and the warp that takes it reading them by shuffle, so that its draw does
# not find them again; call3's cz5 and call4's r3 found them twice), r9 (r8 ordered by every profile).
# From the repository root with gpu-carry22/f carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry22/f
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t6 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  image=""; [ "$2" != new ] && image="--image-file $G/$2.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 new; run 1 r8; run 1 r9; run 2 r9; run 2 r8; run 2 new; run 3 r8; run 3 new; run 3 r9
tar czf $OUT/call6.tgz -C $T .
