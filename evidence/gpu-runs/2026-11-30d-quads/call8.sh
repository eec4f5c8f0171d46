#!/bin/bash
# Issue #28, thirty-fourth session, eighth call: fp8-only variants of 5070057's fp8 kernel (cur34: its code, byte for
# byte the build's), alternated twice in one resident_benchmark (5070057's, as rb; its dump check compares 64 cases of
# each form with the host's): pf2, pf4, pf8 (the judge's products fetched a batch at a time: the batch's A words, then
# their B words, then its sums; for_fixed_block_fetched with kFetch 2, 4, 8), so that the loads of a batch overlap
# where ptxas had each product's A load, B load and use one after the other.
# From the repository root with gpu-carry23/f carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry23/f
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t8 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur34; run 1 pf2; run 1 pf4; run 1 pf8; run 2 pf8; run 2 pf4; run 2 pf2; run 2 cur34
tar czf $OUT/call8.tgz -C $T .
