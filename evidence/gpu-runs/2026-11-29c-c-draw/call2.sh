#!/bin/bash
# Issue #28, twenty-fifth session, second call: call1's gains kept to the kernels where they measured, against HEAD's
# (c4433b9) own cubin (hd). vE = Dealing::four_draws_a_lane in the kernels of one shape (lean_k16, lean_k16_f16,
# lean_fp8; counts known at compile time), pack_whole_words unrolled in lean_k16, lean_k16_f16 and lean_narrow_f16,
# and the wide sampler's class_entry (high-word product) in every kernel. vF = vE with class_entry only in the
# kernels of one shape (the others' draw as in hd). Every form, run by HEAD's resident_benchmark (stripped, its own
# cubin zeroed) --image-file, hd vE vF vF vE hd.
# From the repository root with gpu-carry15 carried (hd/resident_benchmark.xz, v/{hd,vE,vF}.cubin.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k hd/*.xz v/*.xz && chmod +x hd/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 && mkdir -p /tmp/t2
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/hd/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t2/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t2/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t2/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-vE 1-vF 2-vF 2-vE 2-hd; do
  run all ${pk%-*} ${pk#*-}
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
