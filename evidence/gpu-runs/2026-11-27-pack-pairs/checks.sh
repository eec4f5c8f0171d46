#!/bin/bash
# Issue #28, sixth round, at the end: the kernel as committed (s17: HEAD's build, whose resident code is f25e4b3's) on
# one GPU in one call: gpu_resident_test (device cases and D equal the host's for every pair, both images; every
# catalogue fault caught wherever it changes a result), gpu_execution_test, a D bit flipped in 1 of 10^8 cases for
# 60 s, mmasp selftest --faults, and the benchmark's m16n8k16 f16->f32 row. Run from the repository root with
# gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s17/*.xz; do xz -d -f -k $f; done; chmod +x s17/*)
exec > >(tee -a "$OUT/checks.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export MMASP_BINARY=$G/s17/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s17/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 100 $G/s17/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
$G/s17/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
$G/s17/resident_benchmark --form ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 --host-cases 0 --seconds 0.2 | grep -E "^(Device|mma)"
s=$(date +%s)
timeout 150 $G/s17/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
