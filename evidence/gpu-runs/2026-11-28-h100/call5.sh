#!/bin/bash
# Issue #28, thirteenth session, fifth call (an H100): a lane's two elements of a row of D judged together
# (judged_narrow_row: each A word and its tag read once for both; narrow::sum_blocks), in every kernel that judges the
# narrow model. n2 = this step's build (gpu-carry11/n2), nb = 06f14a8's (gpu-carry11/nb): every form nb, n2, n2, nb;
# then gpu_resident_test with n2. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz n2/*.xz && chmod +x nb/* n2/*)
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nb p1-n2 p2-n2 p2-nb; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table5-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table5-$pk.txt) not measured"
done
tar czf $OUT/tables5.tgz -C /tmp/t .
s=$(date +%s)
timeout 240 $G/n2/gpu_resident_test > $OUT/gpu_resident_test5.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test5.txt | head
