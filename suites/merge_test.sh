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
# Issue #72: shard 2 of a run that differs from shard 1 in what decides its results is refused, naming the difference.
odd=(run --emulator --no-compile --filter '*m16n8k16*' --ub --threads 2)
while IFS='|' read -r name extra expected; do
  # shellcheck disable=SC2086
  "$mmasp" "${odd[@]}" --shard 2/4 $extra --out "$work/odd-$name" > "$work/odd-$name.run.log" 2>&1
  [ -f "$work/odd-$name/run.json" ] || fail "the shard with $extra made no run.json: $(tail -3 "$work/odd-$name.run.log")"
  "$mmasp" merge "$work/shard1/run.json" "$work/odd-$name/run.json" --out "$work/odd-$name-merged" > "$work/odd-$name.log" 2>&1
  status=$?
  [ $status -eq 2 ] || fail "a shard with $extra merged (exit $status)"
  grep -q "$expected" "$work/odd-$name.log" || fail "a shard with $extra: the refusal does not name $expected: $(cat "$work/odd-$name.log")"
done <<'EOF_TABLE'
cases|--cases 16 --special-generated 4|its identity differs in \"cases\"
special|--cases 32 --special-generated 2|its identity differs in \"special_generated\"
emulate|--cases 32 --special-generated 4 --emulate block_products=4|its identity differs in \"emulate\"
fault|--cases 32 --special-generated 4 --inject-fault d-high-mantissa-bit-flip|its identity differs in \"inject_fault\"
EOF_TABLE
# A merge is never merged again (it would lose which shards it holds), and a shard number is read strictly.
"$mmasp" merge "$work/part/run.json" "$work/shard2/run.json" --out "$work/again" > "$work/again.log" 2>&1
[ $? -eq 2 ] && grep -q "never a merge again" "$work/again.log" || fail "a partial merge merged again was accepted: $(cat "$work/again.log")"
mkdir -p "$work/odd-shard"
sed 's|"shard": "2/4"|"shard": "2/4x"|' "$work/shard2/run.json" > "$work/odd-shard/run.json"
grep -q '"shard": "2/4x"' "$work/odd-shard/run.json" || fail "could not write the odd shard"
"$mmasp" merge "$work/shard1/run.json" "$work/odd-shard/run.json" --out "$work/odd-shard-merged" > "$work/odd-shard.log" 2>&1
[ $? -eq 2 ] && grep -q 'not i/n' "$work/odd-shard.log" || fail "shard 2/4x was read as 2/4: $(cat "$work/odd-shard.log")"
echo PASS
