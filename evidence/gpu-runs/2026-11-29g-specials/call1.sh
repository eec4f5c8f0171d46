#!/bin/bash
# Issue #28, twenty-ninth session, first call: three cubins run by one resident_benchmark (HEAD's, stripped, its own
# cubin zeroed) --image-file, alternated: hd (HEAD f67c684's cubin, the kernels of 8c3c2a8), vF (narrow::Block's three
# special flags as one word, ../2026-11-29f-finish/vF.diff) and vZ (vF, and finish_code tests the specials once and the zero total after the
# f32 toward-zero path, vZ-on-vF.diff). The f16/bf16 forms hd vF vZ vZ vF hd, fp8 and tf32 likewise, every form hd vF vZ;
# then the rare fault (1 case in 10^8, 60 s) on vZ's cubin. One tgz back.
# From the repository root with gpu-carry18/c carried (resident_benchmark.xz, cubins.tar.xz).
set -u
G=$PWD/gpu-carry18/c
(cd $G && xz -d -f -k resident_benchmark.xz && chmod +x resident_benchmark && xz -d -c cubins.tar.xz | tar x) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/resident_benchmark --image-file $G/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-vF 1-vZ 2-vZ 2-vF 2-hd; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-hd 1-vF 1-vZ 2-vZ 2-vF 2-hd; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-hd 1-vF 1-vZ 2-vZ 2-vF 2-hd; do run tf32 ${pk%-*} ${pk#*-} tf32; done
for pk in 1-hd 1-vF 1-vZ; do run all ${pk%-*} ${pk#*-}; done
s=$(date +%s)
timeout 100 $G/resident_benchmark --image-file $G/vZ.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/t1/rare1-vZ.txt 2>&1
echo "rare fault (vZ): exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/t1/rare1-vZ.txt
tar czf $OUT/tables1.tgz -C /tmp/t1 .
