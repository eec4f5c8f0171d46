#!/bin/bash
# Issue #28, thirtieth session, second call: four cubins run by one resident_benchmark (HEAD f919860's, stripped, its
# own cubin hd) --image-file, alternated: hd; vA (f16_word's class bits by selects: no branches, call1.sh's listing);
# vB (vA, and the f16 kernels pack A and B as 16-bit and C as 16 or 32 bits, without the switch on the tables' bits);
# vC (vB, and form_mma_inline's switch holds only a kernel's own forms: its shape's, and f16 A in the f16 kernels). The
# f16/bf16 forms hd vA vB vC vC vB vA hd, every form hd vC vC hd, fp8 hd vC vC hd. One tgz back.
# From the repository root with gpu-carry19/e carried (all.tar.xz: rb, vA.cubin, vB.cubin, vC.cubin; one solid xz
# with a 192 MiB dictionary, so that the four nearly equal cubins cost about one).
set -u
G=$PWD/gpu-carry19/e
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
rm -rf /tmp/t2 && mkdir -p /tmp/t2
exec > >(tee -a "/tmp/t2/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  image=""; [ "$3" != hd ] && image="--image-file $G/$3.cubin"
  $G/rb $image ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t2/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t2/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t2/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-vA 1-vB 1-vC 2-vC 2-vB 2-vA 2-hd; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-hd 1-vC 2-vC 2-hd; do run all ${pk%-*} ${pk#*-}; done
for pk in 1-hd 1-vC 2-vC 2-hd; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
cp /tmp/t2/call2.log $OUT/
tar czf $OUT/tables2.tgz -C /tmp/t2 .
