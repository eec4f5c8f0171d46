#!/bin/bash
# Issue #28, ninth session, at the end: the checks of the build as committed (gpu-carry8/n), in one call after
# final.sh: gpu_resident_test (device cases and D equal the host's for every pair, both images, now by
# dump_disagreement; every catalogue fault caught wherever it changes a result), gpu_execution_test, a D bit flipped
# in 1 of 10^8 cases for 60 s, mmasp selftest --faults. Run from the repository root with gpu-carry8 carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/*.xz; chmod +x n/*)
exec > >(tee -a "$OUT/checks.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export MMASP_BINARY=$G/n/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 220 $G/n/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 100 $G/n/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
$G/n/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
s=$(date +%s)
timeout 170 $G/n/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
