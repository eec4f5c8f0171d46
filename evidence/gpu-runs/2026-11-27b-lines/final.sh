#!/bin/bash
# Issue #28, eighth session, at the end, on one GPU in one call. The kernel as committed (new: this session's build,
# with model::rounded_code and the 32-bit sum of C, e1c's code) against the kernel before (base: the previous commit's
# cubin, loaded by the same resident_benchmark with --image-file): every form, each kernel once, then the float forms
# in the other order; mmasp run --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu) with the
# previous commit's binary (s17) and this one (the checks are checks.sh, a call of their own). Run from the repository root with
# gpu-carry7/n, gpu-carry7/x/base.cubin.xz, gpu-carry7/s17, gpu-carry7/modules and findings carried.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k n/*.xz s17/mmasp.xz x/base.cubin.xz; chmod +x n/* s17/mmasp)
exec > >(tee -a "$OUT/final.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== base, every form"; s=$(date +%s)
$G/n/resident_benchmark --image-file $G/x/base.cubin --host-cases 0 --seconds 0.2 > $OUT/tablef-all-base.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== new, every form"; s=$(date +%s)
$G/n/resident_benchmark --host-cases 0 --seconds 0.2 > $OUT/tablef-all-new.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
echo "== float forms again: new, then base"
for f in .f16 .bf16 .tf32; do $G/n/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/tablef-again-new.txt
for f in .f16 .bf16 .tf32; do
  $G/n/resident_benchmark --image-file $G/x/base.cubin --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done > $OUT/tablef-again-base.txt
for k in s17 n; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
