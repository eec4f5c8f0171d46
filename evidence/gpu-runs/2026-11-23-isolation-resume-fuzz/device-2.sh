#!/bin/bash
# The watchdog on the GPU (a hanging and a trapping kernel), and kill -9 / --resume on the GPU, after the fix that
# compares repro lines without their --out directory.
set -u
G=$PWD/gpu-carry
M=$G/mmasp
export MMASP_BINARY=$M
exec > >(tee -a "$OUT/device2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== watchdog"
timeout 300 $G/gpu_execution_test --gtest_filter='GpuWatchdog*' 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -12
echo "== kill -9 and --resume"
opts=(run --modules $G/modules --no-compile --extras off --filter '*m16n8k16*' --cases 200000)
s=$(date +%s%N); $M "${opts[@]}" --out /tmp/clean > /dev/null 2>&1; echo "clean exit $? in $(( ($(date +%s%N) - s) / 1000000 )) ms"
$M "${opts[@]}" --out /tmp/killed > /tmp/killed.log 2>&1 &
pid=$!
target=$(( 1 + RANDOM % 20 ))
for i in $(seq 1 1200); do n=$(grep -c '^{"pair"' /tmp/killed/journal.jsonl 2>/dev/null); [ "${n:-0}" -ge $target ] && break; sleep 0.05; done
kill -9 $pid; wait $pid; echo "SIGKILL to the supervisor at $target pairs journaled (exit $?)"
sleep 1; echo "mmasp processes left: $(pgrep -c -f 'gpu-carry/mmasp run' || true)"
$M "${opts[@]}" --out /tmp/killed --resume > /tmp/resumed.log 2>&1; echo "resumed exit $?"
grep -E "resuming" /tmp/resumed.log
$M diff --identical /tmp/clean/run.json /tmp/killed/run.json; echo "identical exit $?"
cp /tmp/killed/run.json $OUT/resumed-run.json
