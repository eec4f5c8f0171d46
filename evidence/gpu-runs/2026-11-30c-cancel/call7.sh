#!/bin/bash
# Issue #28, thirty-third session, seventh call: fp8-only variants of 5b5d3c9's fp8 kernel (new: the
# build's own cubin, byte for byte call4's new), alternated three times in one resident_benchmark (the build's, as rb;
# its dump check compares 64 cases of each form with the host's): r10 (the judge's first pass over both blocks'
# products before the first block's second pass: scan_block_products, scan_block_accumulators and sum_scanned_blocks
# split out of sum_blocks; a scan is a maximum and an OR, so the order changes nothing).
# From the repository root with gpu-carry22/g carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry22/g
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t7 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  image=""; [ "$2" != new ] && image="--image-file $G/$2.cubin"
  $G/rb $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 new; run 1 r10; run 2 r10; run 2 new; run 3 new; run 3 r10
tar czf $OUT/call7.tgz -C $T .
