#!/bin/bash
# Issue #28, twenty-ninth session, second call: this round's build (vZ: the tree with vF.diff and vZ-on-vF.diff) through
# mmasp: selftest --faults on the GPU and gpu_execution_test; mmasp run --backend gpu --budget 60 --seed 1 with HEAD's
# mmasp (hd: f67c684's build) and then vZ's, each after a discarded 5 s warm-up, in one device session; then vZ's
# gpu_resident_test on its embedded cubin (device cases equal host cases for every pair). From the repository root
# with gpu-carry18/m carried (bins.tar.xz: the two mmasp binaries, gpu_execution_test and gpu_resident_test, stripped,
# in one solid xz; modules.tar.xz: mmasp prepare --target sm_90a).
set -u
G=$PWD/gpu-carry18
(cd $G/m && xz -d -c bins.tar.xz | tar x && xz -d -c modules.tar.xz | tar x && chmod +x mmasp-hd mmasp-vZ gpu_execution_test gpu_resident_test) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 150 $G/m/mmasp-vZ selftest --faults --cases 300 --threads 16 > $OUT/selftest2.txt 2>&1
echo "selftest --faults (vZ): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest2.txt
s=$(date +%s)
MMASP_BINARY=$G/m/mmasp-vZ timeout 60 $G/m/gpu_execution_test > $OUT/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test (vZ): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test2.txt
R=$PWD
for k in hd vZ; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/m/mmasp-$k run --backend gpu --modules $G/m/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/m/mmasp-$k run --backend gpu --modules $G/m/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary2.md; cp r/run.json $OUT/budget60-$k-run2.json
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
s=$(date +%s)
timeout 120 $G/m/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test2-cubin.txt 2>&1
echo "gpu_resident_test (cubin, vZ): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test2-cubin.txt
