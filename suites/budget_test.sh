#!/usr/bin/env bash
# Issue #32: `mmasp run --budget S` on the emulator ends within 5 % of S or 2 s, whichever is larger — the whole run,
# compile conformance (from the cache given) and the special suites included.
# With LOAD > 0, that many busy loops run beside it the whole time: the plan sees the time actually left, so the
# budget holds on a loaded runner too.
# Usage: budget_test.sh MMASP PTXAS_CACHE OUT SECONDS [LOAD]
set -u
mmasp=$1 cache=$2 out=$3 budget=$4 load=${5:-0}
hogs=()
for ((i = 0; i < load; i++)); do
  (while :; do :; done) &
  hogs+=($!)
done
trap '[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null' EXIT
start=$(date +%s.%N)
"$mmasp" run --emulator --budget "$budget" --cache "$cache" --threads 2 --out "$out" --force > "$out.log" 2>&1
status=$?
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v b="$budget" -v status="$status" 'BEGIN {
  took = e - s; slack = (0.05 * b > 2) ? 0.05 * b : 2;
  printf "exit %d: %.2f s for --budget %s (allowed %.2f to %.2f s)\n", status, took, b, b - slack, b + slack;
  if (status == 0 && took >= b - slack && took <= b + slack) print "PASS"; else print "FAIL";
}'
