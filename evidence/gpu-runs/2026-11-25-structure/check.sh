#!/bin/bash
# Issue #30 on the H100 (2026-11-25): after the judging layer, the nightly split and the one-declaration run.json,
# the GPU suites pass, selftest --faults catches every fault, and the full run judges the same cases with the same
# bits as the committed baseline (mmasp diff, bits strict: no "bits changed", 0 regressions); screen and characterize
# go through the judging layer on the GPU.
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/check.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timed() {
  local s=$(date +%s.%N); "$@"; local status=$?
  echo "exit $status in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s: $*"; return $status
}
timed timeout 200 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3
timed timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3
W=/tmp/structure && rm -rf $W && mkdir -p $W
timed $G/mmasp run --backend gpu --modules $G/modules --cases 10000 --ub --seed 1 --out $W/full > $W/full.log 2>&1
tail -3 $W/full.log
timed $G/mmasp diff evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json $W/full/run.json > $W/diff.txt 2>&1
grep -c 'bits changed' $W/diff.txt; tail -2 $W/diff.txt
timed timeout 250 $G/mmasp selftest --faults --cases 1000 --json $W/selftest.json > $W/selftest.txt 2>&1
head -2 $W/selftest.txt; tail -1 $W/selftest.txt
timed $G/mmasp screen --budget 10 --out $W/screen > $W/screen.log 2>&1; tail -2 $W/screen.log
timed $G/mmasp characterize --filter '*m16n8k16.row.col.f32.bf16*' --cases 2000 --json $W/characterize.json --out $W/char > $W/char.log 2>&1; tail -3 $W/char.log
cp $W/full/run.json $OUT/full-run.json; cp $W/diff.txt $OUT/diff.txt; cp $W/selftest.txt $OUT/selftest.txt
cp $W/selftest.json $OUT/selftest.json; cp $W/screen/screen.json $OUT/screen.json; cp $W/characterize.json $OUT/characterize.json
