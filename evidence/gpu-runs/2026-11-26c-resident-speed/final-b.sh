#!/bin/bash
# Issue #28, third round, closing measurements (2 of 2), on one H100 in one call: s8 against s9 (s8 with 32-bit fields walked unrotated again) on the 16- and 32-bit-field forms, then a D bit flipped in 1 of 10^8 cases
# for 60 s (s9); mmasp run --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu) with s6 and s9;
# gpu_execution_test; mmasp selftest --faults; gpu_resident_test (all s9). Run from the repository root with gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && for f in s6/*.xz s8/*.xz s9/*.xz; do xz -d -f -k $f; done; chmod +x s6/* s8/* s9/*)
exec > >(tee -a "$OUT/final-b.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in s8 s9 s8 s9; do
  echo "== $k"
  for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16. ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16. \
           ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32. ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.; do
    $G/$k/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E "^mma"
  done
done
$G/s9/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
for k in s6 s9; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s.%N)
  $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
  cp r/run.json $OUT/budget60-$k-run.json; cp r/summary.md $OUT/budget60-$k-summary.md
  grep -E "fewest|GPU-resident path:" r/summary.md | head -3
  cd $G/..
done
export MMASP_BINARY=$G/s9/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 150 $G/s9/gpu_execution_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -2; echo "gpu_execution_test $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 200 $G/s9/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|^mmasp selftest" $OUT/selftest.txt | tail -2
s=$(date +%s); timeout 200 $G/s9/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test (s9) $(( $(date +%s) - s )) s"
