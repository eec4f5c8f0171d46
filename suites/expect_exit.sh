#!/usr/bin/env bash
# expect_exit.sh STATUS PATTERN COMMAND...: runs COMMAND; passes when it exits with STATUS and its output (stdout and
# stderr) matches the extended regular expression PATTERN on one line. For table-driven CLI tests that need both.
status=$1
pattern=$2
shift 2
output=$("$@" 2>&1)
got=$?
echo "$output"
[ "$got" -eq "$status" ] || { echo "expect_exit: exit $got, expected $status"; exit 1; }
grep -Eq -- "$pattern" <<< "$output" || { echo "expect_exit: no line matches: $pattern"; exit 1; }
