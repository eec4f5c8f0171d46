#!/usr/bin/env bash
# Issue #71 on the CPU: a compact set made by `mmasp coverage --make-compact-set` detects, alone, every detectable
# stuck-at fault of its form; a fault it claims to detect and the named special set misses, injected into the
# emulator, fails a run with the set (`run --compact-sets`) at one of the set's cases, and `screen` with the set; so do
# faults spread over the set's whole detection list.
# Usage: compact_set_cli_test.sh MMASP OUT_DIR
set -u
mmasp=$1
out=$2
form='mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$mmasp" coverage --filter "$form" --cases 100 --threads 2 --make-compact-set sets > make.log 2>&1 ||
  { cat make.log; fail "make-compact-set left a detectable fault"; }
cat make.log
[ -f sets/*.json ] || fail "no set written"

# The set alone, without the special suite or random cases: every detectable fault.
"$mmasp" coverage --filter "$form" --compact-sets sets --no-special-set --cases 0 --threads 2 --json compact.json \
  --min-coverage 100 > compact.log 2>&1 || { cat compact.log; fail "the compact set alone does not reach 100 %"; }
grep -m1 "stuck-at coverage" compact.log

# The named special set alone: a fault it misses that the compact set detects outside the spec bound (the emulator's
# run judges by the spec tier: without a model record there is no model tier there).
"$mmasp" coverage --filter "$form" --special-generated 0 --cases 0 --threads 2 --json named.json > named.log 2>&1 ||
  { cat named.log; fail "coverage of the named special set failed"; }
fault=$(python3 -c '
import json
named = json.load(open("named.json"))["pairs"][0]
compact = json.load(open("compact.json"))["pairs"][0]
missed = {f["fault"] for f in named["not_detected"]}
print(next((fault for fault, tier, cases in compact["detections"] if fault in missed and tier == "spec"), ""))
')
[ -n "$fault" ] || fail "no fault that the compact set detects outside the bound and the named special set misses"
echo "injected: datapath:$fault"

# Injected into the emulator, the fault fails the special suite of a run with the set, at a compact case.
"$mmasp" run --emulate table --filter "$form" --cases 1 --special-generated 0 --no-compile --threads 2 \
  --inject-fault "datapath:$fault" --compact-sets sets --out with > with.log 2>&1
status=$?
[ "$status" -eq 1 ] || { tail -20 with.log; fail "with the set the run exited $status, not 1"; }
python3 -c '
import json, sys
run = json.load(open("with/run.json"))
failing = [c for r in run["results"] if r["suite"] == "special" for c in r.get("failing_special_cases", [])]
print("failing special cases:", failing[:6])
sys.exit(0 if any(c.startswith("compact #") for c in failing) else 1)
' || fail "no special result failed at a compact case"
# screen runs the set first: clean, it passes; with a fault the set detects, it fails at a compact-set case. The
# faults: the one above, and the first, middle and last of the set's detections (every stage, either tier).
"$mmasp" screen --emulator --filter "$form" --compact-sets sets --out screen-clean > screen-clean.log 2>&1 ||
  { cat screen-clean.log; fail "screen of the clean emulator did not pass"; }
faults="$fault $(python3 -c '
import json
d = json.load(open("compact.json"))["pairs"][0]["detections"]
print(" ".join(d[i][0] for i in (0, len(d) // 2, len(d) - 1)))
')"
n=0
for f in $faults; do
  n=$((n + 1))
  "$mmasp" screen --emulator --filter "$form" --compact-sets sets --inject-fault "datapath:$f" --out "screen-$n" \
    > "screen-$n.log" 2>&1
  status=$?
  [ "$status" -eq 1 ] || { cat "screen-$n.log"; fail "screen with datapath:$f exited $status, not 1"; }
  python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
failing = [d for d in v["deviations"] if d["step"] == "compact set"]
print(sys.argv[2], "->", v["verdict"], v["compact_sets"]["failing"], "failing compact-set cases")
sys.exit(0 if v["verdict"] == "fail" and failing and failing[0]["repro"].startswith("repro: mmasp eval") else 1)
' "screen-$n/emulator.json" "datapath:$f" || fail "screen with datapath:$f: no failing compact-set case with a case file"
done
echo "PASS"
