#!/bin/bash
# Issue #28, sixth round: what must not change, with s13 (this round's kernel) on one GPU in one call:
# gpu_resident_test (device cases and D equal the host's for every pair, both images; every catalogue fault caught
# wherever it changes a result), a D bit flipped in 1 of 10^8 cases for 60 s, gpu_execution_test, and
# mmasp selftest --faults. Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s13/*.xz; do xz -d -f -k $f; done; chmod +x s13/*)
exec > >(tee -a "$OUT/checks.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export MMASP_BINARY=$G/s13/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s13/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
$G/s13/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
s=$(date +%s); timeout 100 $G/s13/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 150 $G/s13/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
