#!/bin/bash
# Issue #28, eighteenth session, third call: vA kept (call2: every float form x1.000-x1.038). na = main's tree with it
# (each lane's metadata noise by draw_in_run_of_width<32>, no other kernel change) against nb (14b2228): every form nb,
# na, na, nb; then with na gpu_resident_test's cubin cases and mmasp selftest --faults on the GPU. Run from the
# repository root with gpu-carry12 carried (base/ = nb, na/ = na: resident_benchmark, gpu_resident_test, mmasp).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k base/resident_benchmark.xz na/*.xz && chmod +x base/* na/*) || exit 1
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-na p2-na p2-base; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table3-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table3-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table3-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables3.tgz -C /tmp/t .
s=$(date +%s)
timeout 100 $G/na/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test3c.txt 2>&1
echo "gpu_resident_test (cubin cases, na): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test3c.txt
s=$(date +%s)
timeout 200 $G/na/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest3.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest3.txt | tail -2
