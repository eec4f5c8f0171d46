#!/bin/bash
# Issue #28, fifteenth session, first call (an H100): F = each block of the case tables' arena put once (branch
# arena-once, 7e2a37d): the class lists every sampler of a type holds alike, and equal slot-class tables, where each
# sampler had its own copy (m16n8k32 f16->f16's arena 245 -> 29 KB). The host's tables change, the kernels do not
# (the same cubin), so ne (81cd41d, main's kernels and tables) against nf (7e2a37d's build) over every form, in the
# order ne, nf, nf, ne; then gpu_resident_test's cubin cases with nf. Run from the repository root with gpu-carry11
# carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k ne/resident_benchmark.xz nf/resident_benchmark.xz nf/gpu_resident_test.xz && chmod +x ne/* nf/*)
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-ne p1-nf p2-nf p2-ne; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
s=$(date +%s)
timeout 120 $G/nf/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test1.txt 2>&1
echo "gpu_resident_test (cubin cases, nf): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test1.txt | head
