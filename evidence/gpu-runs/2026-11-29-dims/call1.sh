#!/bin/bash
# Issue #28, twenty-third session, first call: what compile-time case dimensions are worth. cur = main at efd3af4
# (resident_benchmark, and its own cubin by --image-file); vD16 and vD64 = the same source with CaseTables' dimension
# fields (m, n, k, counts, logs) made static constants of m16n8k16 f16 and m16n8k64 fp8 (a variant cubin valid for
# those dimensions only), run by cur's resident_benchmark --image-file. Alternated cur, v, v, cur.
set -u
G=$PWD/gpu-carry14
(cd $G && xz -d -f -k cur/*.xz v/*.xz && chmod +x cur/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # form-prefix pass kernel cubin form
  s=$(date +%s)
  $G/cur/resident_benchmark --image-file $G/v/$4.cubin --form $5 --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$5 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 cur cur m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-cur 1-v 2-v 2-cur; do
  k=${pk#*-}; p=${pk%-*}
  run f16 $p $k $([ $k = cur ] && echo cur || echo vD16) m16n8k16.row.col.f32.f16.f16.f32
  run fp8 $p $k $([ $k = cur ] && echo cur || echo vD64) m16n8k64.row.col.f32.e4m3.e4m3.f32
done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
