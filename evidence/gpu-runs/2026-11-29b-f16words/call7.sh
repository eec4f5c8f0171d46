#!/bin/bash
# Issue #28, twenty-fourth session, seventh call: a refactor measured. dd = fx (86e73ab) with B's words over the codes
# written by one helper (b_words_over_codes, a word-maker passed in) for decode_narrow_over_codes and
# decode_f16_words_over_codes alike, where the second repeated the first's loop. nvcc's code for the narrow and f16
# kernels stayed byte for byte, the fp8 kernel's did not: the fp8 forms and the m16n8k32 forms, fx, dd, dd, fx, by dd's
# resident_benchmark --image-file of each build's cubin (fx's taken out of its resident_benchmark: the embedded ELF,
# every .text section 86e73ab's). From the repository root with gpu-carry15 carried (dd/resident_benchmark.xz,
# v/fx.cubin.xz, v/dd.cubin.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k dd/*.xz v/*.xz && chmod +x dd/*) || exit 1
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t7 && mkdir -p /tmp/t7
run() {  # prefix pass kernel form
  s=$(date +%s)
  $G/dd/resident_benchmark --image-file $G/v/$3.cubin --form $4 --host-cases 0 --seconds 0.15 > /tmp/t7/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t7/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t7/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t7/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 dd .e
for pk in 1-fx 1-dd 2-dd 2-fx; do
  run fp8 ${pk%-*} ${pk#*-} .e
  run k32 ${pk%-*} ${pk#*-} m16n8k32.row.col.f
done
tar czf $OUT/tables7.tgz -C /tmp/t7 .
