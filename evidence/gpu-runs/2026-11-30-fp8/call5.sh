#!/bin/bash
# Issue #28, thirty-first session, fifth call: the committed form of call3.sh's sm (real: the fp8 kernel's cells and
# whole-code f32 tables copied to static shared memory, a pair they would not hold refused, its words by
# decode_fp8_words_over_codes) and real2 (real with the chunk columns copied too, A's tags found there), fp8-only
# cubins, against base and sm, alternated in one resident_benchmark (a6f59d0's) --image-file on the eight fp8 forms.
# One tgz back. From the repository root with gpu-carry20/d carried (bins.tar.xz: rb; cubins5.tar.xz; solid xz).
set -u
G=$PWD/gpu-carry20/d
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb && xz -d -c cubins5.tar.xz | tar x) || exit 1
rm -rf /tmp/t5 && mkdir -p /tmp/t5
exec > >(tee -a "/tmp/t5/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # kernel
  s=$(date +%s)
  $G/rb --image-file $G/$1.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > /tmp/t5/fp8-$PASS-$1.txt 2>&1
  echo "fp8 $PASS-$1: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t5/fp8-$PASS-$1.txt) not measured; $(grep -c DEVIATIONS /tmp/t5/fp8-$PASS-$1.txt) with deviations; $(grep 'SM clock' /tmp/t5/fp8-$PASS-$1.txt | cut -c1-70)"
}
PASS=0; run base
PASS=1; for k in base sm real real2; do run $k; done
PASS=2; for k in real2 real sm base; do run $k; done
PASS=3; for k in base real2; do run $k; done
tar czf $OUT/tables5.tgz -C /tmp/t5 .
