#!/bin/bash
# Issue #28, eleventh session: the ninth round's four-at-a-time spread (byte permutes; dec2265, not kept then because
# in the lean kernels, which the float forms share, it cost those 2-4 %) now in the dense kernels only
# (spread_integer_dense<true>, the m16n8k128 integer pairs), the lean kernels' code byte for byte as before. base =
# ee66ae5's build (gpu-carry9/base), sp = this step's (gpu-carry9/sp): the m16n8k128 forms base, sp, sp, base; then
# gpu_resident_test (every pair) and mmasp selftest --faults on the GPU with sp.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/*.xz sp/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* sp/*)
exec > >(tee -a "$OUT/measure5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-sp p2-sp p2-base; do
  $G/${pk#*-}/resident_benchmark --form m16n8k128 --host-cases 0 --seconds 0.2 > /tmp/t/k128-$pk.txt 2>&1
  echo "k128 $pk: exit $?"
done
tar czf $OUT/tables.tgz -C /tmp/t .
mean() { cat /tmp/t/k128-p?-$1.txt | awk '$1 ~ /^mma/ {s += $2; n++} END {printf "%.4g", s / n}'; }
echo "mean verified/s of the k128 forms: base $(mean base), sp $(mean sp)"
s=$(date +%s)
$G/sp/gpu_resident_test > $OUT/gpu_resident_test.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test.txt
s=$(date +%s)
timeout 120 $G/sp/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
