#!/bin/bash
# Issue #28, twenty-third session, second call: the kernels of one shape (gen::portable::FixedCaseDims: the fp8 and
# dense kernels' case dimensions compile-time constants, and a new lean kernel for the m16n8k16 f16 and bf16 pairs).
# cur = main at efd3af4 (this session's first build), fx = this session's change. Every form cur, fx, fx, cur; the fp8
# and m16n8k16 forms (short runs) alike; then fx's gpu_resident_test (every case: the cubin and both PTX images)
# and gpu_execution_test. Run from the repository root with gpu-carry14 carried (cur/*.xz, fx/*.xz).
set -u
G=$PWD/gpu-carry14
(cd $G && xz -d -f -k cur/resident_benchmark.xz fx/*.xz && chmod +x cur/resident_benchmark fx/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 && mkdir -p /tmp/t2
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/$3/resident_benchmark ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t2/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t2/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t2/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 cur .e
for pk in 1-cur 1-fx 2-fx 2-cur; do run every ${pk%-*} ${pk#*-}; done
for pk in 1-cur 1-fx 2-fx 2-cur; do
  run fp8 ${pk%-*} ${pk#*-} .e
  run k16 ${pk%-*} ${pk#*-} m16n8k16.row.col
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
s=$(date +%s)
timeout 330 $G/fx/gpu_resident_test > $OUT/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test (every case, fx): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test2.txt
s=$(date +%s)
MMASP_BINARY=$G/fx/mmasp timeout 60 $G/fx/gpu_execution_test > $OUT/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test (fx): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test2.txt
