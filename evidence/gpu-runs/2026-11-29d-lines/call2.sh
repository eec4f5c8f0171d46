#!/bin/bash
# Issue #28, twenty-sixth session, second call: this round's variants against HEAD's own cubin (hd), on the forms of
# the kernels they change most (every m16n8k16 form: the lean_k16 and lean_k16_f16 kernels, tf32 in the lean one;
# every m16n8k64 form: the fp8 kernel, the 8- and 4-bit integer ones in lean and lean_dense kernels), run by HEAD's
# resident_benchmark (stripped, its own cubin zeroed) --image-file, alternated hd G H I J K L L K J I H G hd.
#   G: an operand's elements per lane a compile-time constant in the kernels of one shape (lane_elements), so that
#      their packing gathers only the words there are; H: G, and D's too (the judge's loop over D);
#   I: G, and the metadata nibbles two draws a lane, by shuffles, in the kernels of one shape;
#   J: I, and the draws' table lookups by 32-bit indices into the arena; K: J, and f16 words made by selects;
#   L: K, and the nibbles and every lane's metadata noise from one round of outputs (draw_nibbles_and_noise).
# The cubins travel in one solid xz (v/cubins.tar.xz: hd and the variants, which share most of their bytes).
# From the repository root with gpu-carry16 carried (hd/resident_benchmark.xz, v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry16
(cd $G && xz -d -f -k hd/resident_benchmark.xz && chmod +x hd/resident_benchmark && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 && mkdir -p /tmp/t2
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/hd/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t2/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t2/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t2/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-G 1-H 1-I 1-J 1-K 1-L 2-L 2-K 2-J 2-I 2-H 2-G 2-hd; do
  run k16 ${pk%-*} ${pk#*-} m16n8k16
  run k64 ${pk%-*} ${pk#*-} m16n8k64
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
