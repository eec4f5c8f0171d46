#!/bin/bash
# Issue #28, nineteenth session, second call: ng = main's tree with the pairs in the fp8 and narrow-over-codes kernels
# only (kPairsCompiled); its kernels' code is np's (fp8, narrow) and vF's (the rest), by their .text SHA-256. The 24
# float forms nc, ng, ng, nc; then with ng every gpu_resident_test case (cubin and both PTX images), gpu_execution_test,
# mmasp selftest --faults on the GPU, the rare fault (1 in 10^8, 60 s) and mmasp run --budget 60 --seed 1 as a new user
# runs it. Run from the repository root with gpu-carry12 carried (nc/resident_benchmark, ng/, modules/ from
# `mmasp prepare --target sm_90a`).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k nc/resident_benchmark.xz ng/*.xz && chmod +x nc/* ng/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t /tmp/o && mkdir -p /tmp/t /tmp/o
for pk in p1-nc p1-ng p2-ng p2-nc; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form row.col.f --host-cases 0 --seconds 0.15 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table2-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
s=$(date +%s)
timeout 300 $G/ng/gpu_resident_test > /tmp/o/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test (every case, ng): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o/gpu_resident_test2.txt
s=$(date +%s)
timeout 60 $G/ng/gpu_execution_test > /tmp/o/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/o/gpu_execution_test2.txt
s=$(date +%s)
timeout 150 $G/ng/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o/selftest2.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" /tmp/o/selftest2.txt | tail -2
s=$(date +%s)
timeout 100 $G/ng/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o/rare2.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o/rare2.txt
R=$PWD
W=/tmp/b-ng && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 90 $G/ng/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "ng: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md /tmp/o/budget60-ng-summary2.md; cp r/run.json /tmp/o/budget60-ng-run2.json
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
cd $R
tar czf $OUT/outputs2.tgz -C /tmp/o .
