#!/bin/bash
# One device session for issues #16 and #17 (see the closing notes): the whole nightly run after the refactor and its
# diff against the H100 baseline; the watchdog with a hanging and a trapping kernel; kill -9 and --resume on the GPU;
# model-guided fuzzing per family against random generation for the same seconds.
set -u
G=$PWD/gpu-carry
M=$G/mmasp
export MMASP_BINARY=$M
LOG=$OUT/device.log
exec > >(tee -a "$LOG") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== 1. mmasp run --cases 10000 --ub (isolation process, the default on a GPU)"
start=$(date +%s.%N)
$M run --modules $G/modules --cases 10000 --ub --out /tmp/full > /tmp/full.log 2>&1
echo "exit $? after $(echo "$(date +%s.%N) - $start" | bc) s"
grep -v '^\[' /tmp/full.log | tail -25
cp /tmp/full/run.json $OUT/full-run.json
$M diff evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json /tmp/full/run.json > /tmp/diff.txt 2>&1
echo "diff exit $?"; head -60 /tmp/diff.txt
echo "== 2. watchdog: a hanging and a trapping kernel"
timeout 300 $G/gpu_execution_test --gtest_filter='GpuWatchdog*' 2>&1 | tail -15
echo "== 3. kill -9 and --resume on the GPU"
opts=(run --modules $G/modules --no-compile --extras off --filter '*m16n8k16*' --cases 200000)
$M "${opts[@]}" --out /tmp/clean > /dev/null 2>&1; echo "clean exit $?"
$M "${opts[@]}" --out /tmp/killed > /tmp/killed.log 2>&1 &
pid=$!
for i in $(seq 1 600); do n=$(grep -c '^{"pair"' /tmp/killed/journal.jsonl 2>/dev/null); [ "${n:-0}" -ge 5 ] && break; sleep 0.05; done
kill -9 $pid; wait $pid; echo "killed the supervisor with ${n:-0} pairs journaled (exit $?)"
sleep 1; echo "mmasp processes left: $(pgrep -c -f 'gpu-carry/mmasp run' || true)"
$M "${opts[@]}" --out /tmp/killed --resume > /tmp/resumed.log 2>&1; echo "resumed exit $?"
$M diff --identical /tmp/clean/run.json /tmp/killed/run.json; echo "identical exit $?"
echo "== 4. gpu_model_fuzz, 60 s per family, against random generation for 60 s"
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:allow_user_segv_handler=1
mkdir -p /tmp/events
for family in f16 bf16 tf32 fp8; do
  mkdir -p /tmp/corpus-$family
  $G/model_event_coverage --seconds 60 --family $family > /tmp/random-$family.txt 2>&1 &
  rpid=$!
  $G/gpu_model_fuzz -max_total_time=60 -timeout=10 -print_final_stats=1 -artifact_prefix=/tmp/events/ --gpu \
    --family=$family --events-out=/tmp/events/$family.events --case-dir=/tmp/events /tmp/corpus-$family > /tmp/fuzz-$family.log 2>&1
  echo "fuzz $family exit $?"; grep -E "gpu_model_fuzz|stat::|DONE|ERROR|deadly" /tmp/fuzz-$family.log | tail -12
  wait $rpid
  head -1 /tmp/random-$family.txt
done
tar czf $OUT/events.tgz -C /tmp events $(cd /tmp && ls random-*.txt fuzz-*.log) 2>/dev/null
ls -la $OUT
