#!/usr/bin/env bash
# Issue #14 on the CPU, emulators standing in for GPUs: `mmasp run --devices emulator:3` runs three at once and they
# agree bit for bit (exit 0); with a fault on device 2 alone the comparison names emulator2 and no other (majority),
# exit 1; with two devices there is no majority, and only the device the oracle judges worse may be named.
# Usage: devices_test.sh MMASP WORKDIR
set -u
mmasp=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
options=(run --no-compile --filter '*m16n8k16*bf16*' --cases 2000 --special-generated 16 --threads 2)
"$mmasp" "${options[@]}" --devices emulator:3 --out "$work/clean" > "$work/clean.log" 2>&1 || fail "clean devices exit $?: $(tail -3 "$work/clean.log")"
grep -q '"clean": true' "$work/clean/devices.json" || fail "three clean emulators do not agree"
for d in 0 1 2; do [ -f "$work/clean/emulator$d/run.json" ] || fail "no run.json for emulator$d"; done
"$mmasp" "${options[@]}" --devices emulator:3 --inject-fault-on 2:d-lowest-bit-flip-rare --out "$work/fault" > "$work/fault.log" 2>&1
[ $? -eq 1 ] || fail "a fault on one of three devices did not exit 1"
grep -q '"emulator2"' "$work/fault/devices.json" || fail "the faulty device is not named"
grep -qE '"emulator[01]"' <(grep -A3 '"deviating"' "$work/fault/devices.json") && fail "a clean device was named"
"$mmasp" "${options[@]}" --devices emulator:2 --inject-fault-on 1:d-lowest-bit-flip-rare --out "$work/two" > "$work/two.log" 2>&1
[ $? -eq 1 ] || fail "two devices that disagree did not exit 1"
grep -qE '"emulator0"' <(grep -A3 '"deviating"' "$work/two/devices.json") && fail "with two devices the clean one was named"
"$mmasp" run --devices 'emulator:1' --out "$work/bad" > "$work/bad.log" 2>&1
[ $? -eq 2 ] || fail "--devices emulator:1 was not a usage error"
echo PASS
