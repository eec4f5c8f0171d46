#!/bin/bash
# selftest --faults on the H100 with 300 random cases per pair, as in 2026-11-23d (112-142 s there); check.sh's run
# with 1000 cases stopped at its 250 s limit after 28 of 40 faults (all caught: selftest-1000-timed-out.txt).
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/selftest.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 280 $G/mmasp selftest --faults --cases 300 --json $OUT/selftest.json > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -2 $OUT/selftest.txt; tail -1 $OUT/selftest.txt
