#!/usr/bin/env bash
# Issue #32: compile conformance reaches junit.xml. A run whose findings file is empty sees every documented compile
# disagreement as new, and exits 1; its junit.xml must hold one failure per new disagreement, in the schema
# (xmllint, suites/junit.xsd) and as a real consumer reads it (python3-junitparser), with the root's totals the sums
# of its testsuites. The same run's report.html and summary.md list the disagreeing cases.
# Usage: junit_consumers_test.sh MMASP WORKDIR PTXAS_CACHE XSD PYTHON3
set -u
mmasp=$1 work=$2 cache=$3 xsd=$4 python=$5
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
echo '{"schema": "mmasp-findings/1", "findings": []}' > "$work/no-findings.json"
"$mmasp" run --emulator --cache "$cache" --findings "$work/no-findings.json" --filter '*m16n8k16.row.col.f32.bf16*' \
  --cases 4 --special-generated 2 --threads 2 --out "$work/out" > "$work/run.log" 2>&1
status=$?
[ "$status" -eq 1 ] || fail "the run with unexplained compile disagreements exited $status, not 1: $(tail -3 "$work/run.log")"
new=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["compile"]["new_disagreements"])' "$work/out/run.json")
[ -n "$new" ] && [ "$new" -gt 0 ] || fail "run.json counts no new compile disagreement"
echo "new compile disagreements: $new"
xmllint --noout --schema "$xsd" "$work/out/junit.xml" || fail "junit.xml does not match the schema"
in_xml=$(grep -c 'type="CompileDisagreement"' "$work/out/junit.xml")
[ "$in_xml" -eq "$new" ] || fail "junit.xml holds $in_xml compile failures, run.json $new"
"$python" - "$work/out/junit.xml" "$new" <<'PY' || fail "python3-junitparser reads junit.xml differently"
import sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
new = int(sys.argv[2])
compile_failures = 0
sums = dict(tests=0, failures=0, errors=0, skipped=0)
for suite in xml:
    for key in sums:
        sums[key] += getattr(suite, key)
    counted = sum(1 for case in suite for r in case.result if isinstance(r, Failure))
    assert counted == suite.failures, f"{suite.name}: {counted} failures in its testcases, {suite.failures} in its count"
    if suite.name.startswith("mmasp.compile."):
        compile_failures += counted
assert compile_failures == new, f"junitparser finds {compile_failures} compile failures, run.json {new}"
for key, value in sums.items():
    assert getattr(xml, key) == value, f"the root says {key}={getattr(xml, key)}, its testsuites {value}"
print(f"junitparser: {compile_failures} compile failures; root totals {sums} equal the sums of the testsuites")
PY
first=$("$python" -c 'import json, sys; print([d["id"] for d in json.load(open(sys.argv[1]))["compile"]["disagreements"] if not d["finding"]][0])' "$work/out/run.json")
[ -n "$first" ] || fail "no disagreement id in run.json"
grep -qF "$first" "$work/out/report.html" || fail "report.html does not list $first"
grep -qF "$first" "$work/out/summary.md" || fail "summary.md does not list $first"
grep -q "mmasp emit --case" "$work/out/summary.md" || fail "summary.md gives no emit line"
echo PASS
