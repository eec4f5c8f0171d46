#!/bin/bash
# Issue #28, fifteenth session, second call (an H100): G = each wide sampler's slot holds its class's record (offset,
# size, mask, forced bits: 16 bytes, one load) where it held a class number that then indexed the sampler's records,
# so that a 32-bit field's draw is two dependent loads (record, code) instead of three (class, record, code). The
# kernels' code changes (every frame as before; fp8's spill stores 128 -> 112 bytes), so the whole build: nf
# (45517eb, main before G) against ng (this step's build), every form nf, ng, ng, nf; then gpu_resident_test's cubin
# cases with ng. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nf/resident_benchmark.xz ng/resident_benchmark.xz ng/gpu_resident_test.xz && chmod +x nf/* ng/*)
exec > >(tee -a "$OUT/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nf p1-ng p2-ng p2-nf; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table2-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table2-$pk.txt) not measured"
done
tar czf $OUT/tables2.tgz -C /tmp/t .
s=$(date +%s)
timeout 120 $G/ng/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test2.txt 2>&1
echo "gpu_resident_test (cubin cases, ng): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test2.txt | head
