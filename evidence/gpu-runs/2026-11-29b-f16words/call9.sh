#!/bin/bash
# Issue #28, twenty-fourth session, ninth call, for the next round (a variant, not kept this session): v3 = HEAD's
# (4d0ce65) generated source with draw_codes' 32-bit sampler branch (C's f32 draws, and every wide sampler) finding a
# class list's entry by one __umulhi of the field's index bits moved to the top ((field << 8) masked) instead of a
# 64-bit product and a 64-bit variable shift: the same entry for every field and size (a host check of 4.8 x 10^7
# random fields and sizes over every mantissa width agreed), every kernel's code moved. hd = HEAD's own cubin. Run by
# HEAD's resident_benchmark --image-file, hd, v3, v3, hd, on the m16n8k16 and m16n8k32 f16 forms and the fp8 forms.
# From the repository root with gpu-carry15 carried (hd/resident_benchmark.xz, v/hd.cubin.xz, v/v3.cubin.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k hd/*.xz v/*.xz && chmod +x hd/*) || exit 1
exec > >(tee -a "$OUT/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t9 && mkdir -p /tmp/t9
run() {  # prefix pass kernel form
  s=$(date +%s)
  $G/hd/resident_benchmark --image-file $G/v/$3.cubin --form $4 --host-cases 0 --seconds 0.15 > /tmp/t9/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t9/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t9/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t9/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd .e
for pk in 1-hd 1-v3 2-v3 2-hd; do
  run k16 ${pk%-*} ${pk#*-} m16n8k16.row.col.f
  run k32 ${pk%-*} ${pk#*-} m16n8k32.row.col.f
  run fp8 ${pk%-*} ${pk#*-} .e
done
tar czf $OUT/tables9.tgz -C /tmp/t9 .
