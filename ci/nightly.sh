#!/usr/bin/env bash
# The nightly gate, the same steps on every CI engine: ci/gitlab-ci.yml and ci/github-nightly.yml call this script and
# only keep the baseline between nights and publish the reports.
#
#   1. One night at a time per baseline: the script holds the baseline folder (flock) from start to end.
#   2. A usable baseline must be there (MMASP_BASELINE_DIR/run.json with results, not interrupted). A missing or
#      unusable one fails the night with the reason, unless this night is declared the first: MMASP_FIRST_NIGHT=1. A
#      first night is never inferred: a renamed folder, a cleared cache or another runner looks just like one.
#   3. `mmasp run` on the GPU (MMASP_BACKEND=gpu: a runner that lost its GPU fails the night, it never goes green on the
#      emulator) into MMASP_OUT, stopped with its reports marked INTERRUPTED after MMASP_TIME_LIMIT seconds or on
#      SIGTERM (a CI job's timeout or cancel).
#   4. `mmasp diff --same-cases` against the baseline, with the waivers file the repository ships (MMASP_WAIVERS,
#      ci/waivers.json: empty until someone waives something, naming the forms and the reason). The reports are then
#      rendered again against the baseline, so that junit.xml and report.html show every regression.
#   5. Only a run that passed and did not regress becomes the baseline; otherwise the baseline stays as it was.
#
# Exit status: 0 the night passed; 1 a failure or a regression; 2 the run or the comparison could not be made (no
# GPU, a usage error, no usable baseline, a baseline of other cases, backend, architecture or generator); 128+N a
# signal. The verdict is also written to MMASP_OUT/nightly.txt. The script never skips the comparison on its own
# advice: a baseline is replaced only by a night declared first, after the old one was removed by hand.
#
# Environment (all optional; relative paths are taken from the repository's root, wherever the job starts):
#   MMASP               the mmasp binary; default: ./bootstrap.sh build, then build/mmasp
#   MMASP_BACKEND       gpu (default), emulator or auto
#   MMASP_RUN_OPTIONS   options of `mmasp run` (default: --cases 10000 --ub --seed 1 --compact-sets
#                       evidence/compact-sets/sm_90: the compact sets run first; a fixed seed makes nights
#                       comparable case for case and bit for bit)
#   MMASP_OUT           the run's folder, inside the repository, published by the CI file (default: mmasp-out)
#   MMASP_BASELINE_DIR  where the baseline lives between nights, kept by the CI file (default: mmasp-baseline)
#   MMASP_WAIVERS       waivers file (default: ci/waivers.json)
#   MMASP_FIRST_NIGHT   1: there is no baseline yet, and tonight's run becomes it if it passes (refused while a
#                       usable baseline exists)
#   MMASP_TIME_LIMIT    seconds the run may take before it is stopped with INTERRUPTED reports (default 3000; keep it
#                       under the CI job's timeout)
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
inside_repo() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$repo" "$1" ;; esac; }
backend=${MMASP_BACKEND:-gpu}
run_options=${MMASP_RUN_OPTIONS:---cases 10000 --ub --seed 1 --compact-sets $repo/evidence/compact-sets/sm_90}
out=$(inside_repo "${MMASP_OUT:-mmasp-out}")
baseline=$(inside_repo "${MMASP_BASELINE_DIR:-mmasp-baseline}")
waivers=$(inside_repo "${MMASP_WAIVERS:-ci/waivers.json}")
first_night=${MMASP_FIRST_NIGHT:-0}
time_limit=${MMASP_TIME_LIMIT:-3000}
mmasp=${MMASP:-}
say() {
  echo "mmasp nightly: $*"
  [ -d "$out" ] && [ ! -L "$out/nightly.txt" ] && echo "$*" >> "$out/nightly.txt"
  return 0
}
refuse() { say "$*"; exit 2; }

case "$first_night" in 0 | 1) ;; *) refuse "MMASP_FIRST_NIGHT is 0 or 1, not '$first_night'" ;; esac
case "$time_limit" in '' | *[!0-9]* | 0*) refuse "MMASP_TIME_LIMIT is a whole number of seconds from 1 (timeout reads 0 as no limit), not '$time_limit'" ;; esac
[ -n "${MMASP_REBASELINE:-}" ] &&
  refuse "MMASP_REBASELINE is not read any more: a night never skips its comparison. To start again from no baseline, remove $baseline/run.json and declare MMASP_FIRST_NIGHT=1"
# The CI file publishes MMASP_OUT from the checkout: a folder elsewhere would be run and never published.
out_real=$(realpath -m "$out")
case "$out_real/" in "$repo"/?*) ;; *) refuse "MMASP_OUT ($out) is not a folder inside the repository ($repo), where the CI file publishes the reports" ;; esac
[ "$out_real" = "$(realpath -m "$baseline")" ] && refuse "MMASP_OUT and MMASP_BASELINE_DIR are the same folder"

if [ -z "$mmasp" ]; then
  "$repo/bootstrap.sh" build || { echo "mmasp nightly: the build failed"; exit 2; }
  mmasp="$repo/build/mmasp"
fi

# 1. One night at a time per baseline.
if [ "$first_night" = 1 ]; then mkdir -p "$baseline" 2>/dev/null; fi
if [ -d "$baseline" ]; then
  exec 9<"$baseline" || refuse "cannot open the baseline folder $baseline"
  flock -n 9 || refuse "another night holds the baseline $baseline: one pipeline at a time per baseline"
fi

# 2. A usable baseline, or a declared first night. Diffing the baseline with itself checks that it is a run mmasp can
# read, with results, not interrupted.
if [ "$first_night" = 1 ]; then
  if [ -f "$baseline/run.json" ] && "$mmasp" diff "$baseline/run.json" "$baseline/run.json" > /dev/null 2>&1; then
    refuse "MMASP_FIRST_NIGHT=1, but $baseline/run.json is a usable baseline: remove it by hand to start again"
  fi
else
  [ -f "$baseline/run.json" ] ||
    refuse "no baseline at $baseline/run.json (the cache was cleared, the folder renamed, or this is another runner); a night that starts a baseline is declared with MMASP_FIRST_NIGHT=1"
  check=$("$mmasp" diff "$baseline/run.json" "$baseline/run.json" 2>&1) ||
    refuse "the baseline $baseline/run.json is not usable: $(printf '%s' "$check" | tail -1)"
fi

# 3. The run. mmasp replaces the previous night's reports under its own lock on MMASP_OUT (--force: also a run that
# was stopped), and the script's own files of last night go first.
mkdir -p "$out" || refuse "cannot make $out"
rm -f "$out/nightly.txt" "$out/diff.txt"
set -f   # the options are split into words, and a glob among them (--filter '*bf16*') stays a glob
# shellcheck disable=SC2086
timeout --preserve-status --signal=TERM --kill-after=300 "$time_limit" \
  "$mmasp" run --backend "$backend" $run_options --force --out "$out" &
child=$!
set +f
# A CI job's timeout or cancel sends SIGTERM: the run is told to stop, writes its reports marked INTERRUPTED, and
# they are published.
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
while kill -0 "$child" 2>/dev/null; do wait "$child"; done
wait "$child"
run_status=$?
trap - TERM INT HUP
if [ "$run_status" -ge 128 ]; then
  say "INTERRUPTED: the run was stopped (exit $run_status); its reports say so; the baseline stays as it was"
  exit "$run_status"
fi
if [ "$run_status" -ne 0 ] && [ "$run_status" -ne 1 ]; then
  say "the run could not be made (exit $run_status; the reason is above); the baseline stays as it was"
  exit "$run_status"
fi

# A declared first night: a run that passed becomes the baseline.
if [ "$first_night" = 1 ]; then
  if [ "$run_status" -ne 0 ]; then
    say "FAILED: first night (MMASP_FIRST_NIGHT=1): the run failed, so it does not become the baseline"
    exit "$run_status"
  fi
  cp "$out/run.json" "$baseline/run.json.new" && mv "$baseline/run.json.new" "$baseline/run.json" ||
    refuse "could not store the baseline in $baseline"
  say "first night (MMASP_FIRST_NIGHT=1): this run passed and is now the baseline ($baseline/run.json)"
  exit 0
fi

# 4. The comparison, case for case, with the shipped waivers; the reports again, against the baseline.
"$mmasp" diff "$baseline/run.json" "$out/run.json" --same-cases --waivers "$waivers" > "$out/diff.txt" 2>&1
diff_status=$?
cat "$out/diff.txt"
"$mmasp" report "$out/run.json" --out "$out" --baseline "$baseline/run.json" --waivers "$waivers" > /dev/null 2>&1 ||
  say "warning: the reports could not be rendered against the baseline (diff.txt has the comparison)"
if [ "$diff_status" -ne 0 ] && [ "$diff_status" -ne 1 ]; then
  say "FAILED: the run could not be compared with the baseline (exit $diff_status; the reason is above); the baseline stays as it was"
  exit 2
fi

# 5. Promotion, only of a run that passed and did not regress. A baseline folder that cannot be written keeps the old
# baseline, which this night was compared with and passed against.
if [ "$run_status" -eq 0 ] && [ "$diff_status" -eq 0 ]; then
  if cp "$out/run.json" "$baseline/run.json.new" 2>/dev/null && mv "$baseline/run.json.new" "$baseline/run.json"; then
    say "passed: no regression against the baseline; tonight's run is the new baseline"
  else
    rm -f "$baseline/run.json.new" 2>/dev/null
    say "passed: no regression against the baseline; warning: $baseline cannot be written, so the old baseline stays"
  fi
  exit 0
fi
[ "$run_status" -ne 0 ] && say "FAILED: the run failed (exit $run_status); the baseline stays as it was"
[ "$diff_status" -ne 0 ] && say "FAILED: regressions against the baseline (exit $diff_status); the baseline stays as it was"
exit 1
