#!/usr/bin/env bash
# Issue #31 on the CPU: the block-scale model made on "an sm_120a GPU" that is the emulator computing with the scale
# applied after each scale block's sum (scale_placement=block-sum) instead of per product. characterize --save
# recovers it and says unique; run --model-record passes with it and names the record; the same record against the
# emulator's default arithmetic (per product) reports Deviations; selftest --faults with the record catches the
# in-bound scale fault by the model tier alone; nothing is called passed on hardware.
# Usage: block_scale_record_cli_test.sh MMASP OUT_DIR
set -u
mmasp=$1
out=$2
form='mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e2m1.e2m1.f32.ue8m0'
arithmetic='scale_placement=block-sum'
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$mmasp" characterize --emulator --emulate "$arithmetic" --architecture sm_120 --filter "$form" --cases 50 --threads 2 \
  --save record.json --out characterize > characterize.log 2>&1 || { cat characterize.log; fail "characterize --save failed"; }
grep -q "shown unique within the declared space" characterize.log || fail "characterize did not say unique"
grep -q '"scale_placement": "block-sum"' record.json || fail "the record's scale_placement is not block-sum"

"$mmasp" run --emulate "$arithmetic" --model-record record.json --filter "$form" --cases 300 --no-compile \
  --out same > same.log 2>&1 || { cat same.log; fail "run --model-record against the same arithmetic failed"; }
grep -q "bit-exact model: model record record.json: characterised on the CPU emulator" same/summary.md ||
  fail "the summary does not say where the model came from"
grep -q "not executed: no sm_120a device" same/summary.md same/run.json || fail "an sm_120a result is not marked as not executed"

"$mmasp" run --emulate hypothesis --model-record record.json --filter "$form" --cases 300 --no-compile --out other > other.log 2>&1
status=$?
[ "$status" -eq 1 ] || { cat other.log; fail "the record against per-product scaling exited $status, not 1"; }
grep -q '\*\*Deviation\*\*' other/summary.md || fail "no Deviation in the summary"

"$mmasp" selftest --faults --emulator --model-record record.json --filter "$form" --cases 200 > selftest.log 2>&1 ||
  { tail -20 selftest.log; fail "selftest --faults with the record failed"; }
grep -q "scale-placement-moved: 1 of 1 affected pairs caught (1 by the model tier alone" selftest.log ||
  { grep scale- selftest.log; fail "the scale fault was not caught by the model tier alone"; }
echo PASS
