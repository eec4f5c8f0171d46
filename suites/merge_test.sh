#!/usr/bin/env bash
# Issue #14: `mmasp merge` of the four shards of a run (--shard i/4) equals the unsharded run (mmasp diff --identical);
# a shard given twice or a shard of another seed is refused (exit 2); a partial merge says what is missing.
# Usage: merge_test.sh MMASP WORKDIR
set -u
mmasp=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
options=(run --emulator --no-compile --filter '*m16n8k16*' --cases 32 --special-generated 4 --ub --threads 2)
"$mmasp" "${options[@]}" --out "$work/whole" > "$work/whole.log" 2>&1 || fail "the unsharded run failed"
for i in 1 2 3 4; do
  "$mmasp" "${options[@]}" --shard $i/4 --out "$work/shard$i" > "$work/shard$i.log" 2>&1 || fail "shard $i failed"
done
"$mmasp" merge "$work"/shard{1,2,3,4}/run.json --out "$work/merged" > "$work/merge.log" 2>&1 || fail "merge failed: $(tail -2 "$work/merge.log")"
"$mmasp" diff --identical "$work/whole/run.json" "$work/merged/run.json" || fail "the merged shards differ from the unsharded run"
[ -f "$work/merged/junit.xml" ] && [ -f "$work/merged/report.html" ] || fail "merge wrote no JUnit or HTML report"
"$mmasp" merge "$work/shard1/run.json" "$work/shard1/run.json" --out "$work/twice" > "$work/twice.log" 2>&1
[ $? -eq 2 ] && grep -q "given twice" "$work/twice.log" || fail "a shard given twice was not refused"
"$mmasp" "${options[@]}" --shard 2/4 --seed 9 --out "$work/other-seed" > /dev/null 2>&1
"$mmasp" merge "$work/shard1/run.json" "$work/other-seed/run.json" --out "$work/mixed" > "$work/mixed.log" 2>&1
[ $? -eq 2 ] && grep -q "the seed differs" "$work/mixed.log" || fail "a shard of another seed was not refused"
"$mmasp" merge "$work/shard1/run.json" "$work/shard3/run.json" --out "$work/part" > /dev/null 2>&1
grep -q '"shard": "merged 2 of 4"' "$work/part/run.json" || fail "a partial merge does not say so"
echo PASS
