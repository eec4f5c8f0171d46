#!/usr/bin/env bash
# Issue #16: nothing finished is lost. On the emulator:
#   1. an uninterrupted run (the reference);
#   2. the same run killed with SIGKILL at a random point (after 1..N-1 finished pairs), then --resume: its run.json
#      must equal the reference's in everything but time, host and command line (mmasp diff --identical);
#   3. the same run sent SIGINT: it must exit 130 with every report marked interrupted, then --resume to the same end;
#   4. a fresh run into an unfinished run's --out is refused (exit 2), and so is a --resume with other options,
#      without touching what is there; a fresh run into a finished run's --out replaces it, leaving no old file.
# Usage: resume_test.sh MMASP WORKDIR [SEED]. The kill point comes from SEED (default: $RANDOM), printed for a rerun.
set -u
mmasp=$1
work=$2
seed=${3:-$RANDOM}
rm -rf "$work" && mkdir -p "$work"
options=(run --emulator --no-compile --filter '*m16n8k16*bf16*' --cases 3000 --special-generated 16 --threads 2)
fail() { echo "FAIL: $*"; exit 1; }
pairs_done() { local n; n=$(grep -c '^{"pair"' "$1/journal.jsonl" 2>/dev/null); echo "${n:-0}"; }
# Starts a run in the background and signals it once `target` pairs are in its journal.
run_and_signal() {
  local out=$1 signal=$2 target=$3
  "$mmasp" "${options[@]}" --out "$out" > "$out.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 600); do
    [ "$(pairs_done "$out")" -ge "$target" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill "-$signal" "$pid" 2>/dev/null
  wait "$pid"
  return $?
}

"$mmasp" "${options[@]}" --out "$work/reference" > "$work/reference.log" 2>&1 || fail "the reference run failed: $(tail -3 "$work/reference.log")"
total=$(pairs_done "$work/reference")
[ "$total" -ge 3 ] || fail "the reference run has $total pairs; the test needs at least 3"
target=$(( 1 + seed % (total - 1) ))
echo "seed $seed: SIGKILL after $target of $total pairs"

run_and_signal "$work/killed" KILL "$target"
status=$?
[ "$status" -eq 137 ] || fail "the killed run exited $status, not 137 (finished before the kill?)"
[ -f "$work/killed/run.json" ] && fail "a killed run left a run.json"
kept=$(pairs_done "$work/killed")
echo "killed with $kept pairs in the journal"
"$mmasp" "${options[@]}" --out "$work/killed" > "$work/fresh-into-killed.log" 2>&1
[ $? -eq 2 ] || fail "a fresh run into the killed (unfinished) run's --out was not refused"
grep -q -- "--resume" "$work/fresh-into-killed.log" || fail "the refusal does not mention --resume"
"$mmasp" "${options[@]/3000/2999}" --out "$work/killed" --resume > "$work/wrong-resume.log" 2>&1
[ $? -eq 2 ] || fail "a --resume with other options was not refused"
grep -q "cases: 2999 now, 3000 in the interrupted run" "$work/wrong-resume.log" || fail "the refusal does not name the option: $(cat "$work/wrong-resume.log")"
[ "$(pairs_done "$work/killed")" -eq "$kept" ] || fail "the refused --resume changed the journal"
"$mmasp" "${options[@]}" --out "$work/killed" --resume > "$work/resumed.log" 2>&1 || fail "the resumed run failed: $(tail -3 "$work/resumed.log")"
"$mmasp" diff --identical "$work/reference/run.json" "$work/killed/run.json" || fail "the resumed run differs from the uninterrupted one"
[ "$(wc -l < "$work/killed/results.jsonl")" -eq "$(wc -l < "$work/reference/results.jsonl")" ] || fail "results.jsonl has another number of lines"

run_and_signal "$work/interrupted" INT 1
status=$?
[ "$status" -eq 130 ] || fail "SIGINT gave exit $status, not 130"
grep -q '"interrupted"' "$work/interrupted/run.json" || fail "run.json does not say interrupted"
grep -q 'INTERRUPTED' "$work/interrupted/summary.md" || fail "summary.md does not say interrupted"
grep -q 'INTERRUPTED' "$work/interrupted/report.html" || fail "report.html does not say interrupted"
grep -q 'type="Interrupted"' "$work/interrupted/junit.xml" || fail "junit.xml has no interruption error"
"$mmasp" diff "$work/reference/run.json" "$work/interrupted/run.json" > /dev/null && fail "mmasp diff calls an interrupted run clean"
"$mmasp" "${options[@]}" --out "$work/interrupted" --resume > "$work/resumed-int.log" 2>&1 || fail "resuming after SIGINT failed"
"$mmasp" diff --identical "$work/reference/run.json" "$work/interrupted/run.json" || fail "the run resumed after SIGINT differs"
touch "$work/reference/failures-from-before"
"$mmasp" "${options[@]}" --out "$work/reference" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a run into an --out holding a file mmasp did not write was not refused"
rm "$work/reference/failures-from-before"
"$mmasp" "${options[@]}" --seed 2 --out "$work/reference" > "$work/rerun.log" 2>&1 || fail "a run into a finished run's --out failed"
grep -q '"seed": 2' "$work/reference/run.json" || fail "the finished run's run.json was not replaced"
[ "$(grep -c '"seed":1' "$work/reference/results.jsonl")" -eq 0 ] || fail "results of the earlier run remain in results.jsonl"
echo "PASS"
