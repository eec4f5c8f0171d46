#!/bin/bash
# Issue #28, twenty-fourth session, third call: the round as built. cur = main at b06952e, fx = this round's build
# (two new kernels, mmasp_resident_lean_k16_f16 and mmasp_resident_lean_narrow_f16, for the f16 pairs of the m16n8k16
# and narrow kernels: f16 words, products summed by f32 multiplication; every other kernel byte for byte b06952e's).
# The m16n8k16 and m16n8k32 float forms, cur, fx, fx, cur; then fx's gpu_resident_test (every case: the cubin and the
# PTX image, with the new test that a kernel of one shape refuses a pair it does not take). From the repository root
# with gpu-carry15 carried (cur/resident_benchmark.xz, fx/resident_benchmark.xz, fx/gpu_resident_test.xz).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k cur/resident_benchmark.xz fx/*.xz && chmod +x cur/resident_benchmark fx/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t3 && mkdir -p /tmp/t3
run() {  # prefix pass kernel form
  s=$(date +%s)
  $G/$3/resident_benchmark --form $4 --host-cases 0 --seconds 0.15 > /tmp/t3/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t3/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t3/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t3/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 fx m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-cur 1-fx 2-fx 2-cur; do
  run k16 ${pk%-*} ${pk#*-} m16n8k16.row.col.f
  run k32 ${pk%-*} ${pk#*-} m16n8k32.row.col.f
done
tar czf $OUT/tables3.tgz -C /tmp/t3 .
s=$(date +%s)
timeout 480 $G/fx/gpu_resident_test > $OUT/gpu_resident_test3.txt 2>&1
echo "gpu_resident_test (every case, fx): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \] .*Refuses" $OUT/gpu_resident_test3.txt
