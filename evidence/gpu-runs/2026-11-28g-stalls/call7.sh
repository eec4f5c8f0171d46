#!/bin/bash
# Issue #28, twenty-second session, seventh call: ne = nc with every narrow table on an even word of the layouts and
# each two-word entry read by one 64-bit load on the GPU (resident::narrow_entry: narrow_code_looked_up, fp8's
# whole-code and f32 tables; narrow_looked_up, f16, bf16 and tf32). The fp8 forms nc, ne, ne, nc; every form ne, nc.
# Then, with ne: gpu_resident_test's cubin cases, mmasp selftest --faults on the GPU, the rare fault (1 case in 10^8,
# 60 s). Run from the repository root with gpu-carry13 carried (nc/resident_benchmark.xz, ne/*.xz).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nc/*.xz ne/*.xz && chmod +x nc/* ne/*) || exit 1
exec > >(tee -a "$OUT/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t7 /tmp/o7 && mkdir -p /tmp/t7 /tmp/o7
for pk in e1-nc e1-ne e2-ne e2-nc; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t7/fp8-$pk.txt 2>&1
  echo "fp8 $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t7/fp8-$pk.txt) not measured; $(grep 'SM clock' /tmp/t7/fp8-$pk.txt | cut -c1-70)"
done
for pk in all1-ne all1-nc; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t7/every-$pk.txt 2>&1
  echo "every $pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t7/every-$pk.txt) not measured; $(grep 'SM clock' /tmp/t7/every-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables7.tgz -C /tmp/t7 .
s=$(date +%s)
timeout 200 $G/ne/gpu_resident_test --gtest_filter='*/cubin' > /tmp/o7/gpu_resident_test7.txt 2>&1
echo "gpu_resident_test (cubin cases, ne): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o7/gpu_resident_test7.txt
s=$(date +%s)
timeout 150 $G/ne/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o7/selftest7.txt 2>&1
echo "selftest --faults (ne): exit $? in $(( $(date +%s) - s )) s"; tail -1 /tmp/o7/selftest7.txt
s=$(date +%s)
timeout 100 $G/ne/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o7/rare7.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o7/rare7.txt
cp /tmp/o7/* $OUT/
