#!/bin/bash
# Issue #28, thirty-fourth session, first call: fp8-only variants of c997a7d's fp8 kernel (hd: its code, byte for byte
# the build's), alternated three times in one resident_benchmark (the build's, as rb; its dump check compares 64 cases
# of each form with the host's): q4 (the judge's lane l judging D[4l .. 4l+3], four elements of a row sharing each A
# word, the D exchanged through static shared memory by halves) and q4g2 (q4 with the blocks walked by groups of 2).
# From the repository root with gpu-carry23/a carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/a
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t1 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 hd; run 1 q4; run 1 q4g2; run 2 q4g2; run 2 q4; run 2 hd; run 3 hd; run 3 q4; run 3 q4g2
tar czf $OUT/call1.tgz -C $T .
