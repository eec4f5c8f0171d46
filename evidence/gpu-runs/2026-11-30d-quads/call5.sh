#!/bin/bash
# Issue #28, thirty-fourth session, fifth call: the build of 5070057's resident_benchmark on the eight fp8 forms with
# 24 warps a block (its default: 224,512 bytes of shared memory, so an L1 of about 28 KB) and capped at 20 and 16
# (--max-warps: about 60 and 92 KB of L1), alternated twice: whether the mixed forms (e4m3 x e5m2, whose A and B draw
# from 40 KB of 12-bit slot tables where matching formats share 20 KB) draw and verify more with the L1 that fewer
# warps leave. From the repository root with gpu-carry23/w carried (rb.xz).
set -u
G=$PWD/gpu-carry23/w
(cd $G && xz -d -c rb.xz > rb && chmod +x rb) || exit 1
T=/tmp/t5 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass warps
  s=$(date +%s)
  cap=""; [ "$2" != w24 ] && cap="--max-warps ${2#w}"
  $G/rb $cap --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-60)"
}
run 1 w24; run 1 w20; run 1 w16; run 2 w16; run 2 w20; run 2 w24
tar czf $OUT/call5.tgz -C $T .
