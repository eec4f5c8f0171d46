#!/bin/bash
# Issue #28, twenty-seventh session, fifth call: this round's final build (fn, 4481253: C words and the special pass as one sum) through mmasp: selftest --faults on
# the GPU and gpu_execution_test; then mmasp run --backend gpu --budget 60 --seed 1 with HEAD's mmasp before this round
# (hd: the build of 6768892, whose kernels 0e615e1 keeps byte for byte) and then fn's, each after a discarded 5 s
# warm-up, in one device session. From the repository root with gpu-carry16 carried (m/bins.tar.xz: the two mmasp
# binaries and gpu_execution_test, stripped, in one solid xz; modules/: mmasp prepare --target sm_90a).
set -u
G=$PWD/gpu-carry16
(cd $G/m && xz -d -c bins.tar.xz | tar x && chmod +x mmasp-hd mmasp-fn gpu_execution_test) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 150 $G/m/mmasp-fn selftest --faults --cases 300 --threads 16 > $OUT/selftest5.txt 2>&1
echo "selftest --faults (fn): exit $? in $(( $(date +%s) - s )) s"; tail -4 $OUT/selftest5.txt
s=$(date +%s)
MMASP_BINARY=$G/m/mmasp-fn timeout 60 $G/m/gpu_execution_test > $OUT/gpu_execution_test5.txt 2>&1
echo "gpu_execution_test (fn): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test5.txt
R=$PWD
for k in hd fn; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/m/mmasp-$k run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/m/mmasp-$k run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary5.md; cp r/run.json $OUT/budget60-$k-run5.json
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
done
