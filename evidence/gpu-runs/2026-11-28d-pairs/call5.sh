#!/bin/bash
# Issue #28, nineteenth session, fifth call: ngi = main's tree with the pair judge's one-block groups of 2 (call4's vI
# for the narrow-over-codes kernel; the lean kernels without the pairs, as ng); its kernels are vI's narrow kernel and
# ng's others, by their .text SHA-256. The 24 float forms ng, ngi, ngi, ng; then with ngi gpu_resident_test's cubin
# cases, mmasp selftest --faults on the GPU, the rare fault (1 in 10^8, 60 s) and mmasp run --budget 60 --seed 1.
# Run from the repository root with gpu-carry12 carried (ng/resident_benchmark, ngi/, modules/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ng/resident_benchmark.xz ngi/*.xz && chmod +x ng/* ngi/*) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t /tmp/o && mkdir -p /tmp/t /tmp/o
for pk in p1-ng p1-ngi p2-ngi p2-ng; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form row.col.f --host-cases 0 --seconds 0.15 > /tmp/t/table5-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table5-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table5-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables5.tgz -C /tmp/t .
s=$(date +%s)
timeout 60 $G/ngi/gpu_resident_test --gtest_filter='*cubin*' > /tmp/o/gpu_resident_test5c.txt 2>&1
echo "gpu_resident_test (cubin cases, ngi): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/o/gpu_resident_test5c.txt
s=$(date +%s)
timeout 150 $G/ngi/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o/selftest5.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" /tmp/o/selftest5.txt | tail -2
s=$(date +%s)
timeout 100 $G/ngi/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o/rare5.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o/rare5.txt
R=$PWD
W=/tmp/b-ngi && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s)
timeout 90 $G/ngi/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
echo "ngi: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
cp r/summary.md /tmp/o/budget60-ngi-summary5.md; cp r/run.json /tmp/o/budget60-ngi-run5.json
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
cd $R
tar czf $OUT/outputs5.tgz -C /tmp/o .
