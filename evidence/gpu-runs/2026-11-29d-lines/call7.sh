#!/bin/bash
# Issue #28, twenty-sixth session, seventh call (for the next round; nothing kept from it): variant P = this round's
# kernels (nw, 0ea952d's cubin) with two elements of a row of D judged together (judged_narrow_elements<..., 2>, as the
# fp8 and narrow kernels do) compiled into the two k16 kernels too. Every m16n8k16 form, nw P P nw P nw, run by nw's
# resident_benchmark (stripped, its own cubin zeroed) --image-file. From the repository root with gpu-carry16 carried
# (nw/resident_benchmark.xz, v/cubins.tar.xz: nw and P).
set -u
G=$PWD/gpu-carry16
(cd $G && xz -d -f -k nw/resident_benchmark.xz && chmod +x nw/resident_benchmark && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t7 && mkdir -p /tmp/t7
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/nw/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t7/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t7/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t7/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t7/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 nw m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-nw 1-P 2-P 2-nw 3-P 3-nw; do
  run k16 ${pk%-*} ${pk#*-} m16n8k16
done
tar czf $OUT/tables7.tgz -C /tmp/t7 .
