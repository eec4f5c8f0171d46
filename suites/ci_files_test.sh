#!/usr/bin/env bash
# Issue #32: the shipped GitHub Actions workflow is valid (action-validator, from npm, installed by
# ./bootstrap.sh test) and its steps are the GitLab file's: both run ci/nightly.sh, with the same MMASP_* settings.
# Usage: ci_files_test.sh ACTION_VALIDATOR SOURCE_DIR
set -u
validator=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$validator" ] || fail "no action-validator at $validator (./bootstrap.sh test installs it from npm)"
"$validator" "$src/ci/github-nightly.yml" || fail "action-validator rejects ci/github-nightly.yml"
settings() { grep -E '^\s+MMASP_[A-Z_]+:' "$1" | sed -E 's/^\s+//; s/"//g' | sort; }
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
echo "both CI files run ci/nightly.sh once with:"
echo "$github"
echo PASS
