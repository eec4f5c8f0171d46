#!/bin/bash
# Issue #28, thirty-first session, seventh call, on the committed build: (1) mmasp run --backend gpu --budget 60 --seed
# 1 again, the build's mmasp (new) first and a6f59d0's (hd) second this time, each after a discarded 5 s warm-up, with
# the load and the busiest processes before each (call6.sh's second run, new, had spent 15.5 s on the host sample
# where the first, hd, spent 10.8 s); (2) gpu_resident_test on the driver-JIT PTX images (compute_89 and compute_80:
# the fp8 kernel's copies in shared memory as the driver compiles them; device cases equal host cases for every pair).
# From the repository root with gpu-carry20/e carried (call6.sh's all.tar.xz).
set -u
G=$PWD/gpu-carry20/e
R=$PWD
(cd $G && xz -d -c all.tar.xz | tar x gpu_resident_test mmasp-new mmasp-hd modules && chmod +x gpu_resident_test mmasp-new mmasp-hd) || exit 1
T=/tmp/t7 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call7.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
echo "cpus: $(nproc)"
for k in new hd; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  echo "load: $(cat /proc/loadavg)"; ps -eo pcpu,comm --sort=-pcpu | head -4 | tr '\n' ';'; echo
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/mmasp-$k run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $T/budget60-$k-summary7.md; gzip -c r/run.json > $T/budget60-$k-run7.json.gz
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
s=$(date +%s)
timeout 300 $G/gpu_resident_test --gtest_filter='*ptx*' > $T/gpu_resident_test7-ptx.txt 2>&1
echo "gpu_resident_test (PTX images): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $T/gpu_resident_test7-ptx.txt
tar czf $OUT/call7.tgz -C $T .
