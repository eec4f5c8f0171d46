#!/bin/bash
# Issue #28, twentieth session, fifth call: with nf (main's build at 0c327f6) mmasp selftest --faults on the GPU, then
# mmasp run --backend gpu --budget 60 --seed 1 with ngi's mmasp and then nf's, one after the other on one H200.
# Run from the repository root with gpu-carry12 carried (ngi/mmasp, nf/mmasp, modules/).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k ngi/mmasp.xz nf/mmasp.xz && chmod +x ngi/* nf/*) || exit 1
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/o && mkdir -p /tmp/o
s=$(date +%s)
timeout 150 $G/nf/mmasp selftest --faults --cases 300 --threads 16 > /tmp/o/selftest5.txt 2>&1
echo "selftest --faults (nf): exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" /tmp/o/selftest5.txt | tail -2
R=$PWD
for k in ngi nf; do
  W=/tmp/b-$k && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$k/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "$k: mmasp run --budget 60: exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md /tmp/o/budget60-$k-summary5.md; cp r/run.json /tmp/o/budget60-$k-run5.json
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
  cd $R
done
tar czf $OUT/outputs5.tgz -C /tmp/o .
