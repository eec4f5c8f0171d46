#!/bin/bash
# Issue #28, thirty-second session, ninth call, a lead for the next round (not committed): fp8-only cubins from the
# committed tree (cur: its fp8 kernel, .text byte for byte the full build's) and cv (cv.diff): the fp8 kernel's A and B
# words made from their codes instead of looked up in the whole-code tables (random codes: 6.7 shared-memory
# wavefronts a lookup), e5m2 as f16's top byte and e4m3 by cvt.rn.f16x2.e4m3x2, then f16_word (the sm_90 fp8 record
# takes fp8 fields as f16). resident_benchmark's dump check compares each form's D and cases with the host's first.
# One resident_benchmark (the committed build's, as rbc), cur cv cv cur.
# From the repository root with gpu-carry21/i carried (all.tar.xz: rbc and the cubins).
set -u
G=$PWD/gpu-carry21/i
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rbc) || exit 1
T=/tmp/t9 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rbc --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 cur; run 1 cv; run 2 cv; run 2 cur
tar czf $OUT/call9.tgz -C $T .
