#!/bin/bash
# Issue #28, twenty-eighth session, call 1b: call1.sh's tables again (its tables1.tgz, with three other files, did not
# come back: a call returns at most eight files). Same builds, same order: the f16 and bf16 forms hd fn fn hd, the
# eight sm_90 fp8 forms hd c1 fn fn c1 hd, every form hd fn; everything in one tgz.
set -u
G=$PWD/gpu-carry17
(cd $G && for f in fn/*.xz; do xz -d -f -k $f; done && chmod +x fn/* && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call1b.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/fn/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-fn 2-fn 2-hd; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-hd 1-c1 1-fn 2-fn 2-c1 2-hd; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-hd 1-fn; do run all ${pk%-*} ${pk#*-}; done
tar czf $OUT/tables1b.tgz -C /tmp/t1 .
