#!/bin/bash
# Issue #28, twentieth session, sixth call: how the fp8 kernel's rate moves with its warps (nf, main's build at
# 0c327f6): the eight fp8 forms at 24 warps a block (its most, as mmasp runs it), 20, 16, 12 and 24 again
# (--max-warps), and at 24 without the phase barrier. ncu (call 4) found it latency-bound at 6 warps a scheduler, issue
# slots busy in 52 % of cycles: this says what more warps would be worth. Run from the repository root with
# gpu-carry12 carried (nf/resident_benchmark).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k nf/resident_benchmark.xz && chmod +x nf/*) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for w in 24 20 16 12 24b; do
  s=$(date +%s)
  $G/nf/resident_benchmark --form .e --max-warps ${w%b} --host-cases 0 --seconds 0.15 > /tmp/t/table6-w$w-nf.txt 2>&1
  echo "w$w: exit $? in $(( $(date +%s) - s )) s; $(head -1 /tmp/t/table6-w$w-nf.txt | grep -o 'warps[^;]*' | head -1); $(grep 'SM clock' /tmp/t/table6-w$w-nf.txt | cut -c1-70)"
done
s=$(date +%s)
$G/nf/resident_benchmark --form .e --phase-barrier off --host-cases 0 --seconds 0.15 > /tmp/t/table6-nobarrier-nf.txt 2>&1
echo "no barrier: exit $? in $(( $(date +%s) - s )) s"
tar czf $OUT/tables6.tgz -C /tmp/t .
for f in /tmp/t/table6-*.txt; do echo "== $(basename $f)"; grep "^mma" $f | awk '{printf "%s %s %s %s %s\n", substr($1,1,70), $2, $3, $4, $5}'; done
