#!/bin/bash
# Issue #28, thirty-third session, first call: the fp8 kernel's cancellation-profile cases. fp8-only cubins
# (../2026-11-30-fp8/fp8only.py) alternated in one resident_benchmark (fb3de22's build, as rb; its dump check compares
# 64 cases of each form, C included, with the host's): base33 (the committed fp8 kernel, .text byte for byte the full
# build's), cz (the draw's cancellation C from the operands' value tables copied to static shared memory, looked up
# where read, instead of every code turned into an f16 value first), cz2 (cz as a function of its own with one fused
# multiply-add a product).
# From the repository root with gpu-carry22/a carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry22/a
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t1 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 base33; run 1 cz; run 1 cz2; run 2 cz2; run 2 cz; run 2 base33
tar czf $OUT/call1.tgz -C $T .
