#!/bin/bash
# Issue #28, thirty-first session, fourth call: the sm variant of call3.sh (the fp8 kernel's layout cells and
# whole-code f32 tables in static shared memory) against base, at 24 warps a block and at 20 (--max-warps 20: more
# L1 left beside shared memory), and sm640 (sm with __launch_bounds__(640, 1): 96 registers) at 20. Alternated in one
# resident_benchmark (a6f59d0's) --image-file on the eight fp8 forms. One tgz back.
# From the repository root with gpu-carry20/d carried (bins.tar.xz: rb; cubins4.tar.xz: the cubins; solid xz).
set -u
G=$PWD/gpu-carry20/d
(cd $G && xz -d -c bins.tar.xz | tar x && chmod +x rb && xz -d -c cubins4.tar.xz | tar x) || exit 1
rm -rf /tmp/t4 && mkdir -p /tmp/t4
exec > >(tee -a "/tmp/t4/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # kernel [extra options]; kernel-w20 runs the kernel's cubin with --max-warps 20
  s=$(date +%s)
  k=$1; shift
  $G/rb --image-file $G/${k%-w20}.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 "$@" > /tmp/t4/fp8-$PASS-$k.txt 2>&1
  echo "fp8 $PASS-$k: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t4/fp8-$PASS-$k.txt) not measured; $(grep -c DEVIATIONS /tmp/t4/fp8-$PASS-$k.txt) with deviations; $(grep 'SM clock' /tmp/t4/fp8-$PASS-$k.txt | cut -c1-70)"
}
PASS=0; run base
PASS=1; run base; run sm; run base-w20 --max-warps 20; run sm-w20 --max-warps 20; run sm640-w20 --max-warps 20
PASS=2; run sm640-w20 --max-warps 20; run sm-w20 --max-warps 20; run base-w20 --max-warps 20; run sm; run base
tar czf $OUT/tables4.tgz -C /tmp/t4 .
