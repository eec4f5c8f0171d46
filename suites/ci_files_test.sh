#!/usr/bin/env bash
# Issue #32: the shipped GitHub Actions workflow is valid (action-validator, from npm, installed by
# ./bootstrap.sh test) and its steps are the GitLab file's: both run ci/nightly.sh, with the same MMASP_* settings.
# Usage: ci_files_test.sh ACTION_VALIDATOR SOURCE_DIR
set -u
validator=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$validator" ] || fail "no action-validator at $validator (./bootstrap.sh test installs it from npm)"
"$validator" "$src/ci/github-nightly.yml" || fail "action-validator rejects ci/github-nightly.yml"
# The settings both files give alike; MMASP_FIRST_NIGHT is declared per engine (a variable or a dispatch input).
settings() { grep -E '^\s+MMASP_[A-Z_]+:' "$1" | grep -v MMASP_FIRST_NIGHT | sed -E 's/^\s+//; s/"//g' | sort; }
github=$(settings "$src/ci/github-nightly.yml")
gitlab=$(settings "$src/ci/gitlab-ci.yml")
[ -n "$github" ] || fail "the workflow sets no MMASP_* variable"
[ "$github" = "$gitlab" ] || fail "the two CI files set different MMASP_* variables:
$(diff <(echo "$github") <(echo "$gitlab"))"
for file in github-nightly.yml gitlab-ci.yml; do
  steps=$(grep -cE '^\s+(- |run: )ci/nightly\.sh\s*$' "$src/ci/$file")
  [ "$steps" -eq 1 ] || fail "ci/$file runs ci/nightly.sh $steps times, not once"
  grep -q 'MMASP_BACKEND: gpu' "$src/ci/$file" || fail "ci/$file does not require the GPU"
done
for file in github-nightly.yml gitlab-ci.yml; do
  grep -qE '^\s+MMASP_FIRST_NIGHT:' "$src/ci/$file" || fail "ci/$file does not declare MMASP_FIRST_NIGHT"
done
# One pipeline at a time per baseline, a job timeout above the run's own limit, and the reports published from
# MMASP_OUT whatever it is set to.
grep -qE '^\s+resource_group: mmasp-baseline' "$src/ci/gitlab-ci.yml" || fail "ci/gitlab-ci.yml has no resource_group"
grep -qE '^\s+timeout: ' "$src/ci/gitlab-ci.yml" || fail "ci/gitlab-ci.yml has no job timeout"
grep -qF 'paths: ["$MMASP_OUT/"]' "$src/ci/gitlab-ci.yml" || fail "ci/gitlab-ci.yml does not publish \$MMASP_OUT"
grep -qF 'junit: "$MMASP_OUT/junit.xml"' "$src/ci/gitlab-ci.yml" || fail "ci/gitlab-ci.yml does not publish \$MMASP_OUT/junit.xml"
grep -qE '^concurrency:' "$src/ci/github-nightly.yml" || fail "ci/github-nightly.yml has no concurrency group"
grep -qE '^\s+checks: write' "$src/ci/github-nightly.yml" || fail "ci/github-nightly.yml cannot publish checks (checks: write)"
[ "$(grep -c 'github.run_attempt' "$src/ci/github-nightly.yml")" -eq 2 ] || fail "the cache keys of ci/github-nightly.yml lack run_attempt"
grep -qF 'path: ${{ env.MMASP_OUT }}/' "$src/ci/github-nightly.yml" || fail "ci/github-nightly.yml does not publish MMASP_OUT"
grep -qE '^\s+timeout-minutes: ' "$src/ci/github-nightly.yml" || fail "ci/github-nightly.yml has no job timeout"
echo "both CI files run ci/nightly.sh once with:"
echo "$github"
echo PASS
