#!/usr/bin/env bash
# The nightly gate, the same steps on every CI engine: ci/gitlab-ci.yml and ci/github-nightly.yml call this script and
# only keep the baseline between nights and publish the reports.
#
#   1. `mmasp run` on the GPU (MMASP_BACKEND=gpu: a runner that lost its GPU fails the night, it never goes green on the
#      emulator) into a fresh MMASP_OUT.
#   2. The first night (no MMASP_BASELINE_DIR/run.json yet, or MMASP_REBASELINE=1): a run that passed becomes the
#      baseline, and the script says so; a run that failed does not.
#   3. Every later night: `mmasp diff` against the baseline, with the waivers file the repository ships
#      (MMASP_WAIVERS, ci/waivers.json: empty until someone waives something, with a reason).
#   4. Only a run that passed and did not regress is promoted to baseline; otherwise the baseline stays as it was.
#
# Exit status: 0 the night passed; 1 a failure or a regression; 2 the run or the diff could not be made (no GPU, a
# usage error, a baseline from another backend, architecture or mmasp generator — remake it with MMASP_REBASELINE=1);
# 128+N a signal. The verdict is also written to MMASP_OUT/nightly.txt.
#
# Environment (all optional):
#   MMASP               the mmasp binary; default: ./bootstrap.sh build, then build/mmasp
#   MMASP_BACKEND       gpu (default), emulator or auto
#   MMASP_RUN_OPTIONS   options of `mmasp run` (default: --cases 10000 --ub --seed 1; a fixed seed makes nights
#                       comparable case for case and bit for bit)
#   MMASP_OUT           the run's folder, published by the CI file (default: mmasp-out)
#   MMASP_BASELINE_DIR  where the baseline lives between nights, kept by the CI file (default: mmasp-baseline)
#   MMASP_WAIVERS       waivers file (default: ci/waivers.json)
#   MMASP_REBASELINE    1: take tonight's run as the new baseline if it passes, without a diff (after an mmasp
#                       update that changed the generators, or a new GPU model)
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
backend=${MMASP_BACKEND:-gpu}
run_options=${MMASP_RUN_OPTIONS:---cases 10000 --ub --seed 1}
out=${MMASP_OUT:-mmasp-out}
baseline=${MMASP_BASELINE_DIR:-mmasp-baseline}
waivers=${MMASP_WAIVERS:-$repo/ci/waivers.json}
mmasp=${MMASP:-}
say() { echo "mmasp nightly: $*"; [ -d "$out" ] && echo "$*" >> "$out/nightly.txt"; return 0; }

if [ -z "$mmasp" ]; then
  "$repo/bootstrap.sh" build || { echo "mmasp nightly: the build failed"; exit 2; }
  mmasp="$repo/build/mmasp"
fi

# 1. The run, into a fresh folder (last night's reports were published with last night's job).
rm -rf "$out"
set -f   # the options are split into words, and a glob among them (--filter '*bf16*') stays a glob
# shellcheck disable=SC2086
"$mmasp" run --backend "$backend" $run_options --out "$out"
run_status=$?
set +f
if [ "$run_status" -ne 0 ] && [ "$run_status" -ne 1 ]; then
  say "the run could not be made (exit $run_status; the reason is above); the baseline stays as it was"
  exit "$run_status"
fi

# 2. The first night.
if [ ! -f "$baseline/run.json" ] || [ "${MMASP_REBASELINE:-0}" = 1 ]; then
  why="no baseline yet"
  [ -f "$baseline/run.json" ] && why="MMASP_REBASELINE=1"
  if [ "$run_status" -ne 0 ]; then
    say "first night ($why): the run failed, so it does not become the baseline"
    exit "$run_status"
  fi
  mkdir -p "$baseline" && cp "$out/run.json" "$baseline/run.json.new" && mv "$baseline/run.json.new" "$baseline/run.json" ||
    { say "could not store the baseline in $baseline"; exit 2; }
  say "first night ($why): this run passed and is now the baseline ($baseline/run.json)"
  exit 0
fi

# 3. Every later night: the diff, with the shipped waivers.
"$mmasp" diff "$baseline/run.json" "$out/run.json" --waivers "$waivers" | tee "$out/diff.txt"
diff_status=${PIPESTATUS[0]}
if [ "$diff_status" -eq 2 ]; then
  say "the run could not be compared with the baseline (the reason is above); remake the baseline with MMASP_REBASELINE=1 once the difference is intended"
  exit 2
fi

# 4. Promotion, only of a run that passed and did not regress.
if [ "$run_status" -eq 0 ] && [ "$diff_status" -eq 0 ]; then
  cp "$out/run.json" "$baseline/run.json.new" && mv "$baseline/run.json.new" "$baseline/run.json" ||
    { say "could not store the baseline in $baseline"; exit 2; }
  say "passed: no regression against the baseline; tonight's run is the new baseline"
  exit 0
fi
[ "$run_status" -ne 0 ] && say "FAILED: the run failed (exit $run_status); the baseline stays as it was"
[ "$diff_status" -ne 0 ] && say "FAILED: regressions against the baseline (exit $diff_status); the baseline stays as it was"
exit 1
