#!/usr/bin/env bash
# Issue #27 on the CPU: a model made on "the user's own GPU", here the emulator computing with sm_80-like arithmetic
# (blocks of 4, 24 fraction bits). characterize --save recovers those parameters and says they are unique; run
# --model-record passes with them; the same record against the sm_90-parameter emulator reports Deviations, whose case
# file `mmasp eval` judges by the record again; selftest --faults with the record catches every fault.
# Usage: model_record_cli_test.sh MMASP OUT_DIR
set -u
mmasp=$1
out=$2
form='mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'
arithmetic='block_products=4,fraction_bits=24'
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$mmasp" characterize --emulator --emulate "$arithmetic" --architecture sm_80 --filter "$form" --cases 1000 \
  --save record.json --out characterize > characterize.log 2>&1 || { cat characterize.log; fail "characterize --save failed"; }
grep -q "shown unique within the declared space" characterize.log || fail "characterize did not say unique"
grep -q '"block_products": "4"' record.json || fail "the record's block_products is not 4"
grep -q '"fraction_bits": "24"' record.json || fail "the record's fraction_bits is not 24"
grep -q '"architecture": "sm_80"' record.json || fail "the record does not name sm_80"

"$mmasp" run --emulate "$arithmetic" --model-record record.json --filter "$form" --cases 500 --no-compile \
  --out same > same.log 2>&1 || { cat same.log; fail "run --model-record against the same arithmetic failed"; }
grep -q "bit-exact model: model record record.json: characterised on the CPU emulator" same/summary.md ||
  fail "the summary does not say where the model came from"
grep -q '"model_source": "model record record.json' same/run.json || fail "run.json does not name the model source"

"$mmasp" run --emulate table --model-record record.json --filter "$form" --cases 500 --no-compile --out other > other.log 2>&1
status=$?
[ "$status" -eq 1 ] || { cat other.log; fail "the record against sm_90 arithmetic exited $status, not 1"; }
grep -q '\*\*Deviation\*\*' other/summary.md || fail "no Deviation in the summary"
repro=$(grep -o 'repro: mmasp eval [^`]*--model-record [^ ]*' other/summary.md | head -1 | sed 's/^repro: mmasp eval //')
[ -n "$repro" ] || fail "the deviation's repro line does not name the record"
# shellcheck disable=SC2086
"$mmasp" eval $repro > eval.log 2>&1
status=$?
[ "$status" -eq 1 ] && grep -q "classification: Deviation" eval.log || { cat eval.log; fail "eval of the deviation exited $status"; }

"$mmasp" selftest --faults --emulator --model-record record.json --filter "$form" --cases 200 > selftest.log 2>&1 ||
  { tail -20 selftest.log; fail "selftest --faults with the record failed"; }
grep -Eq "([0-9]+) faults: \1 caught" selftest.log || { tail -5 selftest.log; fail "selftest did not catch every fault"; }

# Issue #72: a record the model cannot compute with, or whose value smuggles in another parameter, is exit 2 naming the
# file and the field; a record that judges none of the selected forms says so in every report.
edit() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d,open(sys.argv[2],"w"))' record.json "$1" "$2"; }
while IFS='|' read -r name change field; do
  edit "$name.json" "$change"
  "$mmasp" run --emulate "$arithmetic" --model-record "$name.json" --filter "$form" --cases 50 --no-compile --out "$name" > "$name.log" 2>&1
  status=$?
  [ "$status" -eq 2 ] || { cat "$name.log"; fail "a record with $change exited $status, not 2"; }
  grep -q "$name.json: $field" "$name.log" || { cat "$name.log"; fail "the refusal of $change does not name $field"; }
  [ ! -e "$name/run.json" ] || fail "a refused record still made a run"
done <<'TABLE'
bits61|d["forms"][0]["parameters"]["fraction_bits"]="61"|/forms/0/parameters/fraction_bits
bits999|d["forms"][0]["parameters"]["fraction_bits"]="999"|/forms/0/parameters/fraction_bits
block0|d["forms"][0]["parameters"]["block_products"]="0"|/forms/0/parameters/block_products
scale17|d["forms"][0]["parameters"]["scale_bits"]="17"|/forms/0/parameters/scale_bits
spliced|d["forms"][0]["parameters"]["overflow"]="infinity,fraction_bits=24"|/forms/0/parameters/overflow
arch|d["architecture"]="sm_"|/architecture
TABLE
edit none.json 'd["forms"]=[]'
"$mmasp" run --emulate "$arithmetic" --model-record none.json --filter "$form" --cases 50 --no-compile --out none > none.log 2>&1
grep -q "judges none of the 1 float forms this run selected" none.log || { cat none.log; fail "the console does not say the record judges nothing"; }
for report in summary.md report.html run.json; do
  grep -q "judges none of the 1 float forms" "none/$report" || fail "$report does not say the record judges nothing"
done
"$mmasp" characterize --emulator --emulate "$arithmetic" --filter "$form" --cases 0 --save zero.json --out zero > zero.log 2>&1
[ $? -eq 2 ] && grep -q -- "--save needs random cases" zero.log && [ ! -e zero.json ] || { cat zero.log; fail "characterize --cases 0 --save was not refused"; }
"$mmasp" run --emulate scale_bits=0 --filter "$form" --cases 8 --no-compile --out scale0 > scale0.log 2>&1
[ $? -eq 2 ] && grep -q "scale_bits = 0 is out of range" scale0.log || { cat scale0.log; fail "--emulate scale_bits=0 was not refused"; }
echo PASS
