#!/bin/bash
# Issue #28, thirtieth session, fifth call, for the next round (not kept): vF8 = the committed tree (f5b5c16) with
# fp8-words.diff (the fp8 kernel's word loops with the table choice made once a case, each choice with loops of its
# own), a cubin built by hand, against the committed build's own cubin (c5), one resident_benchmark (the committed
# build's) --image-file: fp8 forms c5 vF8 vF8 c5, every form c5 vF8 vF8 c5. One tgz back.
# From the repository root with gpu-carry19/h carried (all.tar.xz: rb, the committed build's resident_benchmark,
# stripped, and vF8.cubin; one solid xz).
set -u
G=$PWD/gpu-carry19/h
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
rm -rf /tmp/t5 && mkdir -p /tmp/t5
exec > >(tee -a "/tmp/t5/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  image=""; [ "$3" != c5 ] && image="--image-file $G/$3.cubin"
  $G/rb $image ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t5/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t5/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t5/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t5/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 c5 m16n8k64.row.col.f32.e4m3.e4m3.f32
for pk in 1-c5 1-vF8 2-vF8 2-c5; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-c5 1-vF8 2-vF8 2-c5; do run all ${pk%-*} ${pk#*-}; done
cp /tmp/t5/call5.log $OUT/
tar czf $OUT/tables5.tgz -C /tmp/t5 .
