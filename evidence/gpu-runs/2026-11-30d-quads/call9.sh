#!/bin/bash
# Issue #28, thirty-fourth session, ninth call: fp8-only variants of 5070057's fp8 kernel (cur34: its code, byte for
# byte the build's), alternated twice in one resident_benchmark (5070057's, as rb; its dump check compares 64 cases of
# each form with the host's): pfv2, pfv4 (call8's pf2 and pf4 with each batch's loads as volatile PTX loads, A's
# first, so that ptxas keeps them in that order: call8's batches judged at the same rate as the committed kernel,
# as if ptxas had put each product's loads back one after the other).
# From the repository root with gpu-carry23/g carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/g
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t9 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur34; run 1 pfv2; run 1 pfv4; run 2 pfv4; run 2 pfv2; run 2 cur34
tar czf $OUT/call9.tgz -C $T .
