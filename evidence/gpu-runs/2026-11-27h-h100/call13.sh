#!/bin/bash
# Issue #28, sixteenth session, thirteenth call (an H100): P, branch pair-judge: the narrow judge takes a lane's two
# D elements of one row together (harness/resident_abi.h judged_narrow_pair_with, model::narrow::sum_block_pair), so
# that every stored product's A word and tag are loaded once for both and the two B words are neighbours. The
# kernels' code changes, so the whole build: nm3 (main at 68b3d82, whose kernels are d6de420's, measured in call9)
# against np (the branch's build), every form nm3, np, np, nm3; then with np gpu_resident_test's cubin cases,
# mmasp selftest --faults and the rare fault (1 in 10^8, 60 s). Run from the repository root with gpu-carry11
# carried (nm3/resident_benchmark.xz, np/{resident_benchmark,gpu_resident_test,mmasp}.xz).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm3/resident_benchmark.xz np/*.xz && chmod +x nm3/* np/*)
exec > >(tee -a "$OUT/call13.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nm3 p1-np p2-np p2-nm3; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table13-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table13-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table13-$pk.txt)"
done
tar czf $OUT/tables13.tgz -C /tmp/t .
s=$(date +%s)
timeout 120 $G/np/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test13.txt 2>&1
echo "gpu_resident_test (cubin cases, np): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test13.txt | head
s=$(date +%s)
timeout 200 $G/np/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest13.txt 2>&1
echo "selftest --faults (np): exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest13.txt | tail -2
s=$(date +%s)
timeout 120 $G/np/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare13.txt 2>&1
echo "rare fault (np): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare13.txt
