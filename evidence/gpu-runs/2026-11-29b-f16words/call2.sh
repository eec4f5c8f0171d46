#!/bin/bash
# Issue #28, twenty-fourth session, second call. (1) The m16n8k16 f16 kernel as built: cur = main at b06952e
# (resident_benchmark with its embedded image) against fw = this round's build (kResidentLeanK16F16Kernel: the f16
# pairs' words f32 words, their products summed by f32 multiplication; every other kernel byte for byte b06952e's),
# cur, fw, fw, cur, the m16n8k16 float forms. (2) What f16 words would give the narrow kernel (m16n8k32 f16): v2 =
# fw's generated source with the narrow kernel compiled with kF16Words (its A and B words made from f16 codes over
# the codes, decode_f16_words_over_codes; a variant for every pair it takes, so its bf16 rows are judged wrongly by
# design: only the f16 rows count), run by fw's resident_benchmark --image-file against fw's own cubin, fw, v2, v2, fw.
# From the repository root with gpu-carry15 carried.
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k cur/resident_benchmark.xz fw/resident_benchmark.xz v/*.xz && chmod +x cur/resident_benchmark fw/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 && mkdir -p /tmp/t2
note() { echo "$1: exit $2 in $3 s; $(grep -c DEVIATIONS /tmp/t2/$4) with deviations; $(grep 'SM clock' /tmp/t2/$4 | cut -c1-70)"; }
$G/fw/resident_benchmark --form m16n8k16.row.col.f32.f16.f16.f32 --host-cases 0 --seconds 0.15 > /tmp/t2/warm.txt 2>&1
for pk in 1-cur 1-fw 2-fw 2-cur; do
  p=${pk%-*}; k=${pk#*-}; s=$(date +%s)
  $G/$k/resident_benchmark --form m16n8k16.row.col.f --host-cases 0 --seconds 0.15 > /tmp/t2/k16-$p-$k.txt 2>&1
  note "k16 $pk" $? $(( $(date +%s) - s )) k16-$p-$k.txt
done
for pk in 1-fw 1-v2 2-v2 2-fw; do
  p=${pk%-*}; k=${pk#*-}; s=$(date +%s)
  $G/fw/resident_benchmark --image-file $G/v/$k.cubin --form m16n8k32.row.col.f --host-cases 0 --seconds 0.15 > /tmp/t2/k32-$p-$k.txt 2>&1
  note "k32 $pk" $? $(( $(date +%s) - s )) k32-$p-$k.txt
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
