#!/bin/bash
# Issue #28, seventeenth session, sixth call: the fp8 kernel at 24 warps (nm6 = the fp8-24 branch: A's narrow words
# over the nibbles, the cancellation profile's values as f16 after them, 2,208 words a warp instead of 2,464;
# __launch_bounds__(768, 1), 80 registers) against nm5 (258bd26: 20 warps of 96 registers; main's kernels since).
# The eight fp8 forms nm5, nm6, nm6, nm5; then, only if nm6 verified more on every form, with nm6:
# gpu_resident_test (the cubin cases, then every case with both PTX images) and mmasp selftest --faults on the GPU.
# Run from the repository root with gpu-carry11 carried (nm5/, nm6/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm5/resident_benchmark.xz nm6/*.xz && chmod +x nm5/* nm6/*)
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-nm5 p1-nm6 p2-nm6 p2-nm5; do
  $G/${pk#*-}/resident_benchmark --form .e --host-cases 0 --seconds 0.3 > /tmp/t/table6-$pk.txt 2>&1
  echo "$pk: exit $?; $(grep -c NOT /tmp/t/table6-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table6-$pk.txt)"
done
tar czf $OUT/tables6.tgz -C /tmp/t .
# nm6 better on every form (p1 and p2 each): verified cases/s, column 2.
better=$(paste <(grep -h m16n8k64 /tmp/t/table6-p1-nm5.txt /tmp/t/table6-p2-nm5.txt | awk '{print $2}') \
               <(grep -h m16n8k64 /tmp/t/table6-p1-nm6.txt /tmp/t/table6-p2-nm6.txt | awk '{print $2}') |
         awk '{n++; if ($2 > $1) b++} END {print (n > 0 && b == n) ? "yes" : "no"}')
echo "nm6 verified more on every form and pass: $better"
[ "$better" = yes ] || exit 0
s=$(date +%s)
timeout 100 $G/nm6/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test6c.txt 2>&1
echo "gpu_resident_test (cubin cases): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test6c.txt
s=$(date +%s)
timeout 200 $G/nm6/mmasp selftest --faults --cases 300 --threads 16 > /tmp/selftest6.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" /tmp/selftest6.txt | tail -2
s=$(date +%s)
timeout 280 $G/nm6/gpu_resident_test --gtest_filter='*ptx*' > $OUT/gpu_resident_test6p.txt 2>&1
echo "gpu_resident_test (PTX cases): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|^\[  FAILED" $OUT/gpu_resident_test6p.txt
