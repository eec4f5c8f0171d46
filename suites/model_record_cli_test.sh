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
echo PASS
