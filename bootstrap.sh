#!/usr/bin/env bash
# One entry point for a fresh machine: install what is missing, configure, build, then either run the main job or
# the whole test suite. The README's quick start and .ci/run both call this script, so the three never drift apart.
#
#   ./bootstrap.sh run [mmasp run options...]   set up, then `mmasp run`
#   ./bootstrap.sh test [ctest options...]      set up (with what the tests need), then the whole CTest suite
#   ./bootstrap.sh build                        set up only
#
# Environment: BUILD_DIR (default: build), CUDA_HOME (default: /usr/local/cuda), JOBS (default: nproc).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
mode="${1:-}"
[ $# -gt 0 ] && shift

usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
}
case "$mode" in run|test|build) ;; *) usage ;; esac

# Debian package -> a file whose presence proves it is installed. Checking files rather than dpkg state also accepts
# equivalent installs made some other way. What building and running need; the tests need more (below), and only
# `./bootstrap.sh test` installs that.
required_packages=(
  "cmake:/usr/bin/cmake"
  "ninja-build:/usr/bin/ninja"
  "g++:/usr/bin/g++"
  "clang:/usr/bin/clang++"
  "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
  "libgtest-dev:/usr/include/gtest/gtest.h"
  "librapidcheck-dev:/usr/include/rapidcheck.h"
  "nlohmann-json3-dev:/usr/include/nlohmann/json.hpp"
  "libcli11-dev:/usr/include/CLI/CLI.hpp"
  "git:/usr/bin/git"
)
# The test suite's own needs: xmllint (JUnit schema), Chromium (report.html in a browser), python3-junitparser (a JUnit
# consumer), and a real CI engine for the CI files (gitlab-ci-local and action-validator from npm, with rsync).
test_packages=(
  "libxml2-utils:/usr/bin/xmllint"
  "chromium:/usr/bin/chromium"
  "python3-junitparser:/usr/lib/python3/dist-packages/junitparser"
  "rsync:/usr/bin/rsync"
  "npm:/usr/bin/npm"
)
[ "$mode" = test ] && required_packages+=("${test_packages[@]}")

missing=()
for entry in "${required_packages[@]}"; do
  package="${entry%%:*}"
  proof="${entry#*:}"
  # The libFuzzer runtime path carries clang's patch version; accept any 14.x.
  if [ "$package" = "libclang-rt-14-dev" ]; then
    compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null && continue
  elif [ -e "$proof" ]; then
    continue
  fi
  missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing missing packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    apt_cmd=(apt-get)
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    apt_cmd=(sudo apt-get)
  else
    echo "bootstrap: cannot install as this user. Run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${apt_cmd[@]}" update -qq
  "${apt_cmd[@]}" install -y -qq --no-install-recommends "${missing[@]}"
fi

cuda_home="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$cuda_home/bin/ptxas" ]; then
  echo "bootstrap: no CUDA toolkit at $cuda_home (ptxas not found)." >&2
  echo "  Install the CUDA toolkit (13.0 or newer) and set CUDA_HOME if it is not at /usr/local/cuda." >&2
  exit 2
fi

# clang builds the whole tree so that the libFuzzer targets live beside everything else; g++ also works, and then
# the fuzz targets are left out with a message from configure.
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$here" -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDAToolkit_ROOT="$cuda_home"
fi
cmake --build "$build_dir" -j "$jobs"

case "$mode" in
  run)
    exec "$build_dir/mmasp" run "$@"
    ;;
  test)
    # The CI engines the `ci` tests run, pinned by suites/ci-tools/package-lock.json, into the build folder; again
    # only when the lock changed.
    tools="$build_dir/ci-tools"
    if ! cmp -s "$here/suites/ci-tools/package-lock.json" "$tools/package-lock.json" || [ ! -d "$tools/node_modules" ]; then
      mkdir -p "$tools"
      cp "$here/suites/ci-tools/package.json" "$here/suites/ci-tools/package-lock.json" "$tools/"
      (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error) || { echo "bootstrap: npm ci of the CI tools failed" >&2; exit 2; }
    fi
    cd "$build_dir"
    # slow (benchmarks, soak) and fuzz runs are opt-in: ctest -L slow, ctest -L fuzz.
    exec ctest --output-on-failure -j "$jobs" -LE 'slow|fuzz' "$@"
    ;;
  build)
    ;;
esac
