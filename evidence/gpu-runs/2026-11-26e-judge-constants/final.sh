#!/bin/bash
# Issue #28, fifth round, closing measurements on one GPU in one call: every sm_90 form (selector 0) with s10 (the
# fourth round's kernel, 9b20860) and s12 (C's and D's formats compile-time constants in the narrow judge), one table
# after the other; then mmasp run --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu) with
# both. Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s10/*.xz s12/*.xz; do xz -d -f -k $f; done; chmod +x s10/* s12/*)
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s10 s12; do
  echo "== $k, every form"; s=$(date +%s)
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/table-final-$k.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
for k in s10 s12; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/run.json $OUT/budget60-$k-run.json; cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
