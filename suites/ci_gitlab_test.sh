#!/usr/bin/env bash
# The shipped GitLab file, run by a real CI engine (gitlab-ci-local, from npm, installed by ./bootstrap.sh test) with
# --shell-isolation, so that each night starts from a fresh checkout and the baseline lives only in the engine's cache,
# as on a runner. On the emulator backend, night after night:
#   - a night with no baseline is red unless declared first (MMASP_FIRST_NIGHT=1), which makes the baseline;
#   - a clean night passes against it;
#   - a fault night (--inject-fault round-shifted-bits: a run that passes on its own, only the diff catches it) is red
#     and leaves the baseline as it was, every way the gate used to go green: the baseline folder renamed, the job run
#     from ci/, the cache cleared, a baseline with no results or "results": [], a baseline of another seed, a waiver
#     that matches everything, MMASP_REBASELINE=1; its junit.xml and report.html show the regressions;
#   - a run stopped by MMASP_TIME_LIMIT publishes INTERRUPTED reports; a night that needs a GPU here says why.
# Usage: ci_gitlab_test.sh GITLAB_CI_LOCAL MMASP SOURCE_DIR WORKDIR PTXAS_CACHE
set -u
glci=$1 mmasp=$2 src=$3 work=$4 cache=$5
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$glci" ] || fail "no gitlab-ci-local at $glci (./bootstrap.sh test installs it from npm)"
command -v rsync > /dev/null || fail "gitlab-ci-local needs rsync (./bootstrap.sh test installs it)"
rm -rf "$work" && mkdir -p "$work/repo/ci" && cd "$work/repo" || exit 1
cp "$src/ci/gitlab-ci.yml" .gitlab-ci.yml
sed 's|^    - ci/nightly.sh$|    - cd ci \&\& ./nightly.sh|' .gitlab-ci.yml > from-ci.gitlab-ci.yml
grep -q 'cd ci && ./nightly.sh' from-ci.gitlab-ci.yml || fail "could not make the variant that runs the script from ci/"
cp "$src/ci/nightly.sh" "$src/ci/waivers.json" ci/
printf '%s\n' '{"schema": "mmasp-waivers/1", "waivers": [{"form": "*", "reason": "flaky"}]}' > ci/waive-everything.json
git init -q . && git add -A && git -c user.name=mmasp -c user.email=mmasp@localhost commit -qm "the nightly gate" || fail "git"
options="--filter *m16n8k16.row.col.f32.bf16* --cases 32 --special-generated 4 --threads 2 --seed 1 --cache $cache"
fault="--inject-fault round-shifted-bits"
stored="$work/repo/.gitlab-ci-local/cache/mmasp-baseline/mmasp-baseline/run.json"
published="$work/repo/.gitlab-ci-local/artifacts/mmasp-nightly/mmasp-out"
# night NAME EXTRA-RUN-OPTIONS [gitlab-ci-local arguments...]: one pipeline, as a schedule starts it; its exit status.
# MMASP_RUN_OPTIONS is $options and the extra options (or, with RUN_OPTIONS set, those instead).
night() {
  local name=$1 extra=$2
  shift 2
  "$glci" --shell-isolation --variable CI_PIPELINE_SOURCE=schedule --variable "MMASP=$mmasp" \
          --variable "MMASP_RUN_OPTIONS=${RUN_OPTIONS:-$options $extra}" "$@" > "$work/$name.log" 2>&1
}
digest() { [ -f "$stored" ] && sha256sum < "$stored" || echo none; }
says() { grep -q -- "$2" "$work/$1.log" || fail "$1 does not say '$2': $(tail -15 "$work/$1.log")"; }
red() { # NAME: the night failed, and the baseline is what it was
  [ "$status" -ne 0 ] || fail "$1 passed the pipeline: $(tail -15 "$work/$1.log")"
  [ "$(digest)" = "$before" ] || fail "$1 changed the baseline"
  if grep -q "remake the baseline\|MMASP_REBASELINE=1" "$work/$1.log"; then fail "$1 advises skipping the comparison"; fi
  echo "$1: red, baseline unchanged"
}

# No baseline, nothing declared: red, and no baseline made.
before=$(digest)
night no-baseline "" --variable MMASP_BACKEND=emulator; status=$?
red no-baseline
says no-baseline "no baseline at"

night first "" --variable MMASP_BACKEND=emulator --variable MMASP_FIRST_NIGHT=1; status=$?
[ $status -eq 0 ] || fail "the declared first night exited $status: $(tail -20 "$work/first.log")"
says first "first night (MMASP_FIRST_NIGHT=1): this run passed and is now the baseline"
[ -f "$stored" ] || fail "the first night left no baseline in the cache"
echo "first night: passed, baseline made"

night first-again "" --variable MMASP_BACKEND=emulator --variable MMASP_FIRST_NIGHT=1; status=$?
before=$(digest)
[ $status -ne 0 ] || fail "a first night declared over a usable baseline passed"
says first-again "is a usable baseline: remove it by hand"

night clean "" --variable MMASP_BACKEND=emulator; status=$?
[ $status -eq 0 ] || fail "the clean night exited $status: $(tail -20 "$work/clean.log")"
says clean "0 regression(s)"
says clean "passed: no regression against the baseline"
echo "clean night: passed against the baseline"
before=$(digest)
saved="$work/baseline-copy.json"
cp "$stored" "$saved"
restore() { mkdir -p "$(dirname "$stored")" && cp "$saved" "$stored"; }

night fault "$fault" --variable MMASP_BACKEND=emulator; status=$?
red fault
says fault "FAILED: regressions against the baseline"
grep -q 'type="Regression"' "$published/junit.xml" || fail "the fault night's junit.xml shows no regression"
grep -Eq '<testsuites [^>]*failures="[1-9]' "$published/junit.xml" || fail "the fault night's junit.xml says 0 failures"
grep -q "regression(s) against the baseline" "$published/report.html" || fail "the fault night's report.html shows no regression"
grep -q "<h1>FAIL</h1>" "$published/report.html" || fail "the fault night's report.html is not red"

night renamed "$fault" --variable MMASP_BACKEND=emulator --variable MMASP_BASELINE_DIR=baseline-renamed; status=$?
red renamed
says renamed "no baseline at"

night from-ci "$fault" --variable MMASP_BACKEND=emulator --file from-ci.gitlab-ci.yml; status=$?
red from-ci
says from-ci "FAILED: regressions against the baseline"

rm -rf "$work/repo/.gitlab-ci-local/cache"
night cache-cleared "$fault" --variable MMASP_BACKEND=emulator; status=$?
before_cleared=$before
before=$(digest)
red cache-cleared
says cache-cleared "no baseline at"
before=$before_cleared
restore

for variant in empty-results no-results-key other-seed; do
  case $variant in
    empty-results) python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"]=[]; json.dump(d,open(sys.argv[1],"w"))' "$stored" ;;
    no-results-key) python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["results"]; json.dump(d,open(sys.argv[1],"w"))' "$stored" ;;
    other-seed) python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["run"]["seed"]=2; json.dump(d,open(sys.argv[1],"w"))' "$stored" ;;
  esac
  before=$(digest)
  night "$variant" "$fault" --variable MMASP_BACKEND=emulator; status=$?
  red "$variant"
  case $variant in
    other-seed) says "$variant" "NOT COMPARED CASE FOR CASE" ;;
    *) says "$variant" "is not usable" ;;
  esac
  restore
done
before=$(digest)

night waive-everything "$fault" --variable MMASP_BACKEND=emulator --variable MMASP_WAIVERS=ci/waive-everything.json; status=$?
red waive-everything
says waive-everything "matches every form"

night rebaseline "$fault" --variable MMASP_BACKEND=emulator --variable MMASP_REBASELINE=1; status=$?
red rebaseline
says rebaseline "MMASP_REBASELINE is not read any more"

RUN_OPTIONS="--filter *m16n8k16.row.col.f32.bf16* --cases 2000000 --threads 2 --seed 1 --cache $cache" \
  night time-limit "" --variable MMASP_BACKEND=emulator --variable MMASP_TIME_LIMIT=3; status=$?
red time-limit
says time-limit "INTERRUPTED"
grep -q 'type="Interrupted"' "$published/junit.xml" || fail "the stopped night published no INTERRUPTED junit.xml"
grep -q "<h1>INTERRUPTED</h1>" "$published/report.html" || fail "the stopped night published no INTERRUPTED report.html"

night gpu "" --variable MMASP_BACKEND=gpu; status=$?
red gpu
says gpu "needs a GPU, and there is no usable one here"

night clean-again "" --variable MMASP_BACKEND=emulator; status=$?
[ $status -eq 0 ] || fail "a clean night after all that exited $status: $(tail -20 "$work/clean-again.log")"

# The reports are published from MMASP_OUT whatever it is set to; a folder outside the checkout is refused.
night other-out "" --variable MMASP_BACKEND=emulator --variable MMASP_OUT=nightly-reports; status=$?
[ $status -eq 0 ] || fail "a clean night into MMASP_OUT=nightly-reports exited $status: $(tail -20 "$work/other-out.log")"
[ -f "$work/repo/.gitlab-ci-local/artifacts/mmasp-nightly/nightly-reports/junit.xml" ] ||
  fail "MMASP_OUT=nightly-reports: the reports were not published"
before=$(digest)
night outside "$fault" --variable MMASP_BACKEND=emulator --variable "MMASP_OUT=$work/outside"; status=$?
red outside
says outside "is not a folder inside the repository"

# One night at a time per baseline: while another holds it, the script refuses.
mkdir -p "$work/repo/mmasp-baseline"
flock "$work/repo/mmasp-baseline" sleep 20 &
holder=$!
sleep 1
(cd "$work/repo" && MMASP="$mmasp" MMASP_BACKEND=emulator MMASP_RUN_OPTIONS="$options" ci/nightly.sh) > "$work/busy.log" 2>&1
status=$?
kill $holder 2>/dev/null
[ $status -eq 2 ] || fail "a night beside another holding the baseline exited $status: $(tail -5 "$work/busy.log")"
says busy "another night holds the baseline"

# A baseline folder that cannot be written: a clean night still passes against it, keeping it, and says so. Read-only
# for root too: a read-only bind mount in a mount namespace of the test's own.
if unshare --user --map-root-user --mount true 2> /dev/null; then
  rm -rf "$work/repo/mmasp-baseline" && mkdir -p "$work/repo/mmasp-baseline" && cp "$stored" "$work/repo/mmasp-baseline/run.json"
  kept=$(sha256sum < "$work/repo/mmasp-baseline/run.json")
  (cd "$work/repo" && MMASP="$mmasp" MMASP_BACKEND=emulator MMASP_RUN_OPTIONS="$options" \
     unshare --user --map-root-user --mount sh -c \
     'mount --bind mmasp-baseline mmasp-baseline && mount -o remount,ro,bind mmasp-baseline && exec ci/nightly.sh') \
    > "$work/read-only.log" 2>&1
  status=$?
  [ $status -eq 0 ] || fail "a clean night with a read-only baseline folder exited $status: $(tail -8 "$work/read-only.log")"
  says read-only "cannot be written, so the old baseline stays"
  [ "$(sha256sum < "$work/repo/mmasp-baseline/run.json")" = "$kept" ] || fail "the read-only baseline changed"
  echo "read-only baseline folder: passed, baseline kept"
else
  echo "read-only baseline folder: not tried (no private mount namespace here)"
fi
echo PASS
