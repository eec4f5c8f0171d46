#!/usr/bin/env bash
# Issue #71 on the CPU: what `mmasp coverage` says a run's stream detects, the run detects. For a sample of faults of
# every stage that coverage says the stream of `mmasp run --cases 64` detects outside the spec bound (the emulator's
# run judges by the spec tier), each injected into the emulator fails that run.
# Usage: coverage_agrees_with_run_test.sh MMASP OUT_DIR
set -u
mmasp=$1
out=$2
form='mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32'
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$mmasp" coverage --filter "$form" --cases 64 --threads 2 --json coverage.json > coverage.log 2>&1 ||
  { cat coverage.log; fail "coverage failed"; }
# Of each site kind, the spec-tier detection that came latest in selector 0's stream (the run also runs the other
# selectors' streams).
faults=$(python3 -c '
import json
pair = json.load(open("coverage.json"))["pairs"][0]
chosen = {}   # site kind -> (cases to detect, fault): the latest detection of each, the hardest the stream caught
for fault, tier, cases in pair["detections"]:
    site = fault.split(".")[0].split("[")[0]
    if tier == "spec" and cases > chosen.get(site, (0, ""))[0]:
        chosen[site] = (cases, fault)
print(" ".join(fault for cases, fault in chosen.values()))
')
[ -n "$faults" ] || fail "no fault detected outside the bound"
count=0
for fault in $faults; do
  "$mmasp" run --emulate table --filter "$form" --cases 64 --no-compile --threads 2 --inject-fault "datapath:$fault" \
    --out "run-$count" > "run-$count.log" 2>&1
  status=$?
  [ "$status" -eq 1 ] || { tail -20 "run-$count.log"; fail "datapath:$fault: coverage says the stream detects it; the run exited $status"; }
  echo "datapath:$fault: detected by coverage, and the run failed"
  count=$((count + 1))
done
[ "$count" -ge 6 ] || fail "only $count sites sampled"
echo "PASS: $count faults"
