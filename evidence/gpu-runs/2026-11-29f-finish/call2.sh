#!/bin/bash
# Issue #28, twenty-eighth session, second call: this round's build (fn) through mmasp: selftest --faults on the GPU and
# gpu_execution_test; mmasp run --backend gpu --budget 60 --seed 1 with HEAD's mmasp (hd: bf6c4f3's build) and then
# fn's, each after a discarded 5 s warm-up, in one device session; then fn's gpu_resident_test on the driver-JIT PTX
# image (its *ptx* tests: device cases equal host cases for every pair, as any sm_80+ GPU runs the image; its embedded
# cubin zeroed, which these tests do not load). From the repository root with gpu-carry17 carried (m/bins.tar.xz: the
# two mmasp binaries, gpu_execution_test and gpu_resident_test, stripped, in one solid xz; modules/: mmasp prepare
# --target sm_90a).
set -u
G=$PWD/gpu-carry17
(cd $G/m && xz -d -c bins.tar.xz | tar x && chmod +x mmasp-hd mmasp-fn gpu_execution_test gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 150 $G/m/mmasp-fn selftest --faults --cases 300 --threads 16 > $OUT/selftest2.txt 2>&1
echo "selftest --faults (fn): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest2.txt
s=$(date +%s)
MMASP_BINARY=$G/m/mmasp-fn timeout 60 $G/m/gpu_execution_test > $OUT/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test (fn): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test2.txt
R=$PWD
for k in hd fn; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/m/mmasp-$k run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/m/mmasp-$k run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary2.md; cp r/run.json $OUT/budget60-$k-run2.json
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
s=$(date +%s)
timeout 300 $G/m/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test2-ptx.txt 2>&1
echo "gpu_resident_test (PTX image, fn): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|OK \]" $OUT/gpu_resident_test2-ptx.txt
