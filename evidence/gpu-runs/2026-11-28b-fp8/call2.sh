#!/bin/bash
# Issue #28, seventeenth session, second call: main's build with the fp8 kernel in blocks of up to 640 threads (nm5 =
# 8bf1726 + this change; its fp8 kernel is byte for byte call1's f640) against main before it (nm4 = e9a43d7, whose
# kernels 8bf1726 has unchanged). The eight fp8 forms nm4, nm5, nm5, nm4 (every other kernel's code is the same in
# both: ResidentFrames). Then with nm5: mmasp selftest --faults on the GPU, gpu_execution_test, gpu_resident_test's
# cubin cases, a D bit flipped in 1 of 10^8 cases for 60 s; then mmasp run --budget 60 --seed 1, nm4 then nm5, as a
# new user runs it. Run from the repository root with gpu-carry11 carried (nm4/, nm5/, modules/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm4/*.xz nm5/*.xz && chmod +x nm4/* nm5/*)
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nm4 p1-nm5 p2-nm5 p2-nm4; do
  $G/${pk#*-}/resident_benchmark --form .e --host-cases 0 --seconds 0.3 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $?; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table2-$pk.txt)"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
s=$(date +%s)
timeout 200 $G/nm5/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest2.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest2.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/nm5/mmasp timeout 100 $G/nm5/gpu_execution_test > $OUT/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test2.txt
s=$(date +%s)
timeout 100 $G/nm5/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test (cubin cases): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test2.txt
s=$(date +%s)
timeout 100 $G/nm5/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare2.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare2.txt
for nm in nm4 nm5; do
  W=/tmp/b-$nm && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 80 $G/$nm/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$nm: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$nm-summary2.md; cp r/run.json $OUT/budget60-$nm-run2.json 2>/dev/null
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
done
