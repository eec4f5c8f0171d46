#!/bin/bash
# Issue #28, twenty-first session, second call. base = this session's build of c317ef3; nw2 = the f32 words build as
# committed (the f32 tables found after the standard ones, narrow_f32_table, so that PairTables and every other
# kernel's code stay as they were: ResidentFrames, only the fp8 kernel's .text differs from base's). The eight fp8 forms
# base, nw2, nw2, base, base, nw2; then with nw2 every gpu_resident_test case, gpu_execution_test, mmasp selftest
# --faults on the GPU and the rare fault (1 case in 10^8, 60 s). Run from the repository root with gpu-carry13 carried.
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k base/*.xz nw2/*.xz && chmod +x base/* nw2/*) || exit 1
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t2 /tmp/o2 && mkdir -p /tmp/t2 /tmp/o2
for pk in e1-base e1-nw2 e2-nw2 e2-base e3-base e3-nw2; do
  k=${pk#*-}
  s=$(date +%s)
  $G/$k/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t2/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t2/table2-$pk.txt) not measured; $(grep 'SM clock' /tmp/t2/table2-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables2.tgz -C /tmp/t2 .
s=$(date +%s)
timeout 300 $G/nw2/gpu_resident_test > /tmp/o2/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test (every case, nw2): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o2/gpu_resident_test2.txt
s=$(date +%s)
MMASP_BINARY=$G/nw2/mmasp timeout 60 $G/nw2/gpu_execution_test > /tmp/o2/gpu_execution_test2.txt 2>&1
echo "gpu_execution_test (nw2): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " /tmp/o2/gpu_execution_test2.txt
s=$(date +%s)
timeout 150 $G/nw2/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o2/selftest2.txt 2>&1
echo "selftest --faults (nw2): exit $? in $(( $(date +%s) - s )) s"; tail -4 /tmp/o2/selftest2.txt
s=$(date +%s)
timeout 100 $G/nw2/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > /tmp/o2/rare2.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 /tmp/o2/rare2.txt
cp /tmp/o2/* $OUT/
