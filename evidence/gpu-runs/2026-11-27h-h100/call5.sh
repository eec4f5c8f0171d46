#!/bin/bash
# Issue #28, fifteenth session, fifth call (an H100): what must not change, with nm (main at 3d6d862: the arena put
# once, F; its kernels are 81cd41d's): mmasp selftest --faults on the GPU, gpu_execution_test (MMASP_BINARY for its
# watchdog test), a D bit flipped in 1 of 10^8 cases for 60 s (resident_benchmark --rare-fault), then mmasp run
# --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu). Run from the repository root with
# gpu-carry11 carried (nm/, and modules/: the host path's cubins, which mmasp compiles itself where one is missing).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm/resident_benchmark.xz nm/mmasp.xz nm/gpu_execution_test.xz && chmod +x nm/*)
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 200 $G/nm/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest5.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest5.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/nm/mmasp timeout 150 $G/nm/gpu_execution_test > $OUT/gpu_execution_test5.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test5.txt
s=$(date +%s)
timeout 120 $G/nm/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare5.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -1 $OUT/rare5.txt
W=/tmp/b-nm && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s.%N)
timeout 80 $G/nm/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
cp r/summary.md $OUT/budget60-nm-summary5.md
grep -E "fewest|GPU-resident path:" r/summary.md | head -3
