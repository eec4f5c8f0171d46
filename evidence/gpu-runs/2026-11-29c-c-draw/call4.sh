#!/bin/bash
# Issue #28, twenty-fifth session, fourth call: the rare fault (1 case in 10^8, 60 s) with this session's build (nw),
# then mmasp run --backend gpu --budget 60 --seed 1 with nw after a discarded 5 s warm-up (HEAD's mmasp beside it
# would take the carry over the run tool's 64 MiB with the tree; the figures before are last session's call5, the
# same command on 86e73ab, whose kernels c4433b9 has but for the fp8 kernel's refactor). From the repository root
# with gpu-carry15 carried (nw/{mmasp,resident_benchmark}.xz, modules/: mmasp prepare --target sm_90a).
set -u
G=$PWD/gpu-carry15
(cd $G && xz -d -f -k nw/mmasp.xz nw/resident_benchmark.xz && chmod +x nw/*) || exit 1
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 100 $G/nw/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare4.txt 2>&1
echo "rare fault (nw): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare4.txt
R=$PWD
for k in nw; do
  W=/tmp/b-warm-$k && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k warm-up: exit $?; $(grep -o 'compile conformance [0-9.]* s' r/summary.md)"
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $OUT/budget60-$k-summary4.md; cp r/run.json $OUT/budget60-$k-run4.json
  grep -E "SM clock while|fewest|GPU-resident path:|time by phase" r/summary.md | head -5
  cd $R
done
