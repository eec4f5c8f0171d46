#!/bin/bash
# Issue #28, eleventh session: the narrow words over the nibbles (PairTables::narrow_over_nibbles, the
# mmasp_resident_lean_narrow kernel), so that 32 warps of m16n8k32 f16 and bf16 fit a multiprocessor. One binary
# (gpu-carry9/nn), its own embedded cubin: --narrow-over-nibbles off runs those pairs as before (lean_768 kernel, 24
# warps), on in the new kernel; alternated off, on, on, off. Then gpu_resident_test (every pair, the new kernel
# included), every form with it on, and mmasp selftest --faults on the GPU.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in nn/*.xz; do xz -d -f -k "$f"; done; chmod +x nn/*)
exec > >(tee -a "$OUT/measure1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/t
B=$G/nn/resident_benchmark
for pk in p1-off p1-on p2-on p2-off; do
  $B --form m16n8k32.row.col.f --host-cases 0 --seconds 0.2 --narrow-over-nibbles ${pk#*-} > /tmp/t/k32-$pk.txt 2>&1
  echo "k32 floats $pk: exit $?"
done
tar czf $OUT/tables.tgz -C /tmp/t .
s=$(date +%s)
$G/nn/gpu_resident_test > $OUT/gpu_resident_test.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test.txt
$B --host-cases 0 --seconds 0.2 > /tmp/t/all-p1-on.txt 2>&1; echo "all forms on: exit $?"
tar czf $OUT/tables.tgz -C /tmp/t .
s=$(date +%s)
timeout 170 $G/nn/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
