#!/bin/bash
# Issue #28, for the next session (branch byte-slots, not run yet): K = a wide sampler's 256 slot classes as bytes, four
# to an arena word, where they were 32-bit numbers (1 KB a table, 256 bytes after): the m16n8k32 forms lost 2-5 % to
# 30 KB more of tables in G (call2.sh), so 7.5 KB less (m16n8k32 f16->f16: 10 tables) may gain. The kernels' code
# changes (byte loads), so the whole build: nf (7e2a37d: main's kernels and tables before K) against nk (the branch's build), every form nf, nk,
# nk, nf; then gpu_resident_test's cubin cases with nk. Run from the repository root with gpu-carry11 carried
# (nf/resident_benchmark.xz, the arena-once build, nk/{resident_benchmark,gpu_resident_test}.xz from the branch).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nf/resident_benchmark.xz nk/resident_benchmark.xz nk/gpu_resident_test.xz && chmod +x nf/* nk/*)
exec > >(tee -a "$OUT/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nf p1-nk p2-nk p2-nf; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table9-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table9-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table9-$pk.txt)"
done
tar czf $OUT/tables9.tgz -C /tmp/t .
s=$(date +%s)
timeout 120 $G/nk/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test9.txt 2>&1
echo "gpu_resident_test (cubin cases, nk): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test9.txt | head
