#!/bin/bash
# Issue #28, twenty-fifth session, first call: two variants of the draw, every form, against HEAD's (c4433b9) own
# cubin (hd). vB = HEAD's generated source with (1) C's 128 draws of 32-bit fields taken four a lane, one after the
# other (two or three stream outputs a lane in one round each, where dealing 65 outputs left a third round to lane 0
# alone, and four sampler lookups a lane instead of six), and (2) a wide sampler's class-list entry by one
# high-word product of the index moved to the top of the word (class_entry) instead of a 64-bit product and a
# variable shift. vC = vB with the four stores of a lane turned by (lane / 8) % 4, so that lanes 8 apart write
# different banks. vD = vB with pack_whole_words' loops unrolled (a lane's four registers each gathered under a
# uniform condition, where a loop not unrolled pushed each finished word in at r[3] and then padded with zeros).
# Every form, run by HEAD's resident_benchmark --image-file, hd vB vC vD vD vC vB hd. The benchmark is HEAD's
# stripped, its own embedded cubin zeroed (it loads only --image-file's), to keep the carry small.
# From the repository root with gpu-carry15 carried (hd/resident_benchmark.xz, v/{hd,vB,vC,vD}.cubin.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k hd/*.xz v/*.xz && chmod +x hd/*) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/hd/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-vB 1-vC 1-vD 2-vD 2-vC 2-vB 2-hd; do
  run all ${pk%-*} ${pk#*-}
done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
