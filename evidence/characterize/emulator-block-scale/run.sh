#!/bin/bash
# Issue #31 on the CPU emulator (no sm_120a GPU is lent): characterize recovers each new block-scale parameter when the
# emulator computes with it changed from the hypothesis (per product, the scale product kept whole). One form per
# change; the logs beside this script are its output. Usage: run.sh MMASP
set -u
mmasp=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
nvf4='mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3'
mxf8='mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m1.f32.ue8m0'
characterize() {   # name, form, emulated arithmetic
  local s=$(date +%s)
  "$mmasp" characterize --emulator --emulate "$3" --architecture sm_120 --filter "$2" --cases 300 --threads 2 \
    --save "$work/$1.json" --out "$work/$1" > "$here/$1.log" 2>&1
  echo "exit $? in $(( $(date +%s) - s )) s" >> "$here/$1.log"
}
characterize mxf8f6f4-block-sum "$mxf8" 'scale_placement=block-sum'
characterize nvf4-block-sum "$nvf4" 'scale_placement=block-sum'
characterize nvf4-scale-bits-6-toward-zero "$nvf4" 'scale_bits=6,scale_rounding=toward-zero'
characterize nvf4-scale-bits-7 "$nvf4" 'scale_bits=7'
# The block-sum record judges the emulator computing with it (0 deviations, exit 0) and the per-product hypothesis
# (Deviations, exit 1); selftest --faults with it. (A rounded scale product, as in the scale_bits records, moves D by up
# to 2^-7 of a product: outside the spec bound, so a run of that arithmetic fails by the spec tier whatever the record.)
record="$work/nvf4-block-sum.json"
"$mmasp" run --emulate 'scale_placement=block-sum' --model-record "$record" --filter "$nvf4" --cases 1000 \
  --no-compile --out "$work/same" > /dev/null 2>&1; echo "block-sum record vs its own arithmetic: exit $?" > "$here/runs.log"
grep -E "judged by the model|Fail \|" "$work/same/summary.md" | head -4 >> "$here/runs.log"
"$mmasp" run --emulate hypothesis --model-record "$record" --filter "$nvf4" --cases 1000 \
  --no-compile --out "$work/other" > /dev/null 2>&1; echo "block-sum record vs the hypothesis (per product): exit $?" >> "$here/runs.log"
grep -E "\*\*Deviation\*\*|judged by the model" "$work/other/summary.md" | head -4 >> "$here/runs.log"
"$mmasp" run --emulate 'scale_bits=7' --model-record "$work/nvf4-scale-bits-7.json" --filter "$nvf4" --cases 1000 \
  --no-compile --out "$work/bits" > /dev/null 2>&1; echo "scale_bits=7 record vs its own arithmetic: exit $? (the spec tier)" >> "$here/runs.log"
grep -E "judged by the model|^- \*\*Fail" "$work/bits/summary.md" | head -3 | cut -c1-160 >> "$here/runs.log"
"$mmasp" selftest --faults --emulator --model-record "$record" --filter "$nvf4" --cases 300 \
  2>&1 | grep -E "^  scale-|faults:" >> "$here/runs.log"
cp "$work"/*.json "$here/"
