#!/bin/bash
# Issue #28, twelfth session, second call (an H100): (1) the phase barrier for the forms still below 10^8 (the
# m16n8k32 f16/bf16 forms, fp8) and the named form: resident_benchmark --phase-barrier float (the default) and off,
# alternated twice, sp's build (480dd6b's kernels, 412c326's .text); (2) mmasp run --budget 60 as a new user runs it
# (all defaults but --seed 1 --backend gpu) with base (ee66ae5) and sp, one after the other.
# Run from the repository root with gpu-carry10 carried.
set -u
G=$PWD/gpu-carry10
(cd $G && for f in base/*.xz sp/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* sp/*)
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-float p1-off p2-off p2-float; do
  for f in m16n8k32.row.col.f m16n8k64.row.col.f32.e m16n8k16.row.col.f32.f16; do
    $G/sp/resident_benchmark --form $f --phase-barrier ${pk#*-} --host-cases 0 --seconds 0.2 | grep '^mma' >> /tmp/t/barrier-$pk.txt
  done
  echo "$pk: done"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
for k in float off; do
  echo "phase barrier $k, mean verified/s:"
  cat /tmp/t/barrier-p?-$k.txt | awk '{split($1,a,"aligned."); f=a[2]; s[f]+=$2; n[f]++} END {for (f in s) printf "  %-40s %.4g\n", f, s[f]/n[f]}' | sort
done
for k in base sp; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  timeout 80 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
