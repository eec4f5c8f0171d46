#!/usr/bin/env bash
# Issue #32: the shipped GitLab file, run by a real CI engine (gitlab-ci-local, from npm, installed by
# ./bootstrap.sh test) in a scratch git repository, on the emulator backend, four nights in a row:
#   1. passes and creates the baseline;  2. passes against it;
#   3. with an injected fault (--inject-fault) fails, and the baseline stays as it was;
#   4. with the GPU required (MMASP_BACKEND=gpu) on this GPU-less machine fails, and says why.
# Usage: ci_gitlab_test.sh GITLAB_CI_LOCAL MMASP SOURCE_DIR WORKDIR PTXAS_CACHE
set -u
glci=$1 mmasp=$2 src=$3 work=$4 cache=$5
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$glci" ] || fail "no gitlab-ci-local at $glci (./bootstrap.sh test installs it from npm)"
command -v rsync > /dev/null || fail "gitlab-ci-local needs rsync (./bootstrap.sh test installs it)"
rm -rf "$work" && mkdir -p "$work/repo/ci" && cd "$work/repo" || exit 1
cp "$src/ci/gitlab-ci.yml" .gitlab-ci.yml
cp "$src/ci/nightly.sh" "$src/ci/waivers.json" ci/
git init -q . && git add -A && git -c user.name=mmasp -c user.email=mmasp@localhost commit -qm "the nightly gate" || fail "git"
options="--filter *m16n8k16.row.col.f32.bf16* --cases 32 --special-generated 4 --threads 2 --seed 1 --cache $cache"
# night N BACKEND EXTRA-OPTIONS: one pipeline, as a schedule starts it; its exit status.
night() {
  "$glci" --variable CI_PIPELINE_SOURCE=schedule --variable "MMASP=$mmasp" --variable "MMASP_BACKEND=$2" \
          --variable "MMASP_RUN_OPTIONS=$options $3" > "$work/night$1.log" 2>&1
}
baseline() { find "$work/repo" -path '*mmasp-baseline/run.json' -newer "$work/repo/.gitlab-ci.yml" -print0 | xargs -0 -r sha256sum | sort; }

night 1 emulator ""; status=$?
[ $status -eq 0 ] || fail "night 1 exited $status: $(tail -20 "$work/night1.log")"
grep -q "first night (no baseline yet): this run passed and is now the baseline" "$work/night1.log" || fail "night 1 did not say it made the baseline"
[ -n "$(baseline)" ] || fail "night 1 left no baseline"
echo "night 1: passed, baseline made"

night 2 emulator ""; status=$?
[ $status -eq 0 ] || fail "night 2 exited $status: $(tail -20 "$work/night2.log")"
grep -q "0 regression(s)" "$work/night2.log" || fail "night 2 did not diff against the baseline"
grep -q "passed: no regression against the baseline" "$work/night2.log" || fail "night 2 did not say it passed"
before=$(baseline)
echo "night 2: passed against the baseline"

night 3 emulator "--inject-fault d-high-mantissa-bit-flip"; status=$?
[ $status -ne 0 ] || fail "night 3, with a fault injected, passed the pipeline"
grep -q "the baseline stays as it was" "$work/night3.log" || fail "night 3 did not say the baseline was kept: $(tail -20 "$work/night3.log")"
[ "$(baseline)" = "$before" ] || fail "night 3 changed the baseline"
echo "night 3: failed with the injected fault, baseline unchanged"

night 4 gpu ""; status=$?
[ $status -ne 0 ] || fail "night 4, requiring a GPU on a machine without one, passed the pipeline"
grep -q "needs a GPU, and there is no usable one here" "$work/night4.log" || fail "night 4 did not say why: $(tail -20 "$work/night4.log")"
[ "$(baseline)" = "$before" ] || fail "night 4 changed the baseline"
echo "night 4: failed, naming the missing GPU"
echo PASS
