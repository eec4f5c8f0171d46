#!/bin/bash
# Issue #28, eleventh session, first call: the checks the ninth round's build (ee66ae5) had not run on a GPU.
# gpu_resident_test (device cases equal host cases for every pair), gpu_execution_test, a D bit flipped in 1 of 10^8
# cases for 60 s, and mmasp selftest --faults on the GPU. Run from the repository root with gpu-carry9 carried;
# gpu-carry9/cur holds ee66ae5's stripped binaries (.xz).
set -u
G=$PWD/gpu-carry9
(cd $G && for f in cur/*.xz; do xz -d -f -k "$f"; done; chmod +x cur/*)
exec > >(tee -a "$OUT/checks1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_resident_test gpu_execution_test; do
  s=$(date +%s)
  $G/cur/$t > $OUT/$t.txt 2>&1
  echo "$t: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/$t.txt
done
$G/cur/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
s=$(date +%s)
timeout 170 $G/cur/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
