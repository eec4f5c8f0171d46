#!/usr/bin/env bash
# What a GPU without the sm_90a cubin pays for the resident path's PTX image, measured on any sm_80+ GPU (on sm_90 the
# image is forced with --resident-image ptx):
#   1. the driver's first JIT of the image (mmasp prepare, every cache empty);
#   2. a later load, from the module store;
#   3. a `--budget BUDGET` run on the PTX path with every cache empty, whose wall time must stay within 5 % or 2 s of
#      its budget (it counts the JIT).
# Usage: bench/ptx_path_timings.sh BUILD_DIR [BUDGET]   (BUDGET: seconds, default 60). Exit 1 when the run overran or
# did not JIT-compile, 2 when it was refused (no GPU).
set -euo pipefail
build="${1:?usage: bench/ptx_path_timings.sh BUILD_DIR [BUDGET]}"
budget="${2:-60}"
mmasp="$build/mmasp"
[ -x "$mmasp" ] || { echo "no $mmasp: build first (./bootstrap.sh build)" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export CUDA_CACHE_DISABLE=1   # the driver's own JIT cache (~/.nv/ComputeCache) would hide the JIT
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
one_form='*m16n8k16.row.col.f32.bf16.bf16.f32'   # prepare's toolkit modules: one form, so that the JIT dominates

echo "== 1. first JIT of the PTX image (empty module store)"
MMASP_CACHE_DIR="$scratch/prepare" "$mmasp" prepare --resident-image ptx --filter "$one_form" | tee "$scratch/prepare.log"
if grep -q "resident image: no GPU here" "$scratch/prepare.log"; then
  echo "no GPU here: nothing to measure" >&2
  exit 2
fi
echo "== 2. the same again (from the module store)"
MMASP_CACHE_DIR="$scratch/prepare" "$mmasp" prepare --resident-image ptx --filter "$one_form"

echo "== 3. mmasp run --resident-image ptx --budget $budget, every cache empty"
start="$(now)"
status=0
MMASP_CACHE_DIR="$scratch/run" "$mmasp" run --backend gpu --resident-image ptx --budget "$budget" --seed 1 \
  --out "$scratch/out" > "$scratch/run.log" 2>&1 || status=$?
wall="$(seconds "$start" "$(now)")"
grep -E "GPU-resident path|over its --budget" "$scratch/run.log" | cut -c1-400 || true
if [ "$status" -eq 2 ]; then
  tail -5 "$scratch/run.log" >&2
  echo "the run was refused (exit 2): no GPU, or a usage error; nothing measured" >&2
  exit 2
fi
grep -q "JIT-compiled for this GPU" "$scratch/run.log" ||
  { echo "the run did not JIT-compile the PTX image (not a cold measurement): see the notes above" >&2; exit 1; }
limit="$(awk -v b="$budget" 'BEGIN { l = b * 1.05; if (b + 2 > l) l = b + 2; printf "%.2f", l }')"
echo "run exit $status; wall $wall s for --budget $budget (limit $limit s)"
awk -v w="$wall" -v l="$limit" 'BEGIN { exit !(w <= l) }' || { echo "OVER: the run overran its budget"; exit 1; }
