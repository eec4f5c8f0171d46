#!/bin/bash
# Issues #29/#32 on the H100 (2026-11-25): the committed baselines remade at this code's case streams (the full run and
# the --budget 60 run, as before: seed 1), the whole-run --budget measured, the GPU suites, and ci/nightly.sh on the GPU
# (first night, second night).
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/gate.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timed() {
  local s=$(date +%s.%N); "$@"; local status=$?
  echo "exit $status in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s: $*"; return $status
}
# The runs' folders stay on the machine; what comes back ($OUT holds at most 8 files) is copied at the end.
W=/tmp/gate && rm -rf $W && mkdir -p $W && cd $W
timed $G/mmasp run --backend gpu --modules $G/modules --cases 10000 --ub --seed 1 --cache /tmp/cold-ptxas-cache --out full > full.log 2>&1
tail -4 full.log
timed $G/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --out budget60 > budget60.log 2>&1
tail -4 budget60.log
cd - > /dev/null
timed timeout 200 $G/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3
timed timeout 200 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -3
# The nightly gate's steps on the GPU, two nights: the first makes the baseline, the second diffs against it.
for night in 1 2; do
  MMASP=$G/mmasp MMASP_RUN_OPTIONS="--cases 2000 --seed 1 --modules $G/modules" MMASP_OUT=/tmp/nightly-out \
    MMASP_BASELINE_DIR=/tmp/nightly-baseline timed ci/nightly.sh > /tmp/night$night.log 2>&1
  echo "night $night:"; grep -E "mmasp nightly:|regression\(s\)" /tmp/night$night.log
done
cp $W/full/run.json $OUT/full-run.json; cp $W/full/summary.md $OUT/full-summary.md; cp $W/full/report.html $OUT/full-report.html
cp $W/budget60/run.json $OUT/budget60-run.json; cp $W/budget60/summary.md $OUT/budget60-summary.md
cp /tmp/night2.log $OUT/nightly-night2.log
