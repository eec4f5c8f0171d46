#!/bin/bash
# Issue #28, ninth session, at the end, on one GPU in one call: the build as committed (new: the integer cancellation C
# from the dense judge's bytes, vd's code, and round_to's tie fix) against the previous commit's build (old: built at
# dc0383b; d771719 changed no kernel code), each binary with its own embedded image. Every form old then new; the
# integer and float forms again, new then old; then mmasp run --budget 60 as a new user runs it (all defaults but
# --seed 1 --backend gpu) with old and new. Run from the repository root with gpu-carry8 and findings carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/*.xz o/*.xz; chmod +x n/* o/*)
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in o n; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/tablef-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in n o; do
  for f in .s32 .f16 .bf16 .tf32; do $G/$k/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/tablef-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
for k in o n; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
