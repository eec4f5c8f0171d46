#!/bin/bash
# Issue #28, fifteenth session, sixth call (an H100): call5's machine ran every pair's resident kernel at about 0.67 of
# the rate the same kernels had on the H100s of calls 1-4 and of the fourteenth session (budget60-nm-summary5.md
# against ../2026-11-27g-h100/budget60-ne-summary7.md, integer and float pairs alike, and the rare fault's form 1.08
# against 1.51 x 10^8 cases/s), so this call first reads the GPU's clocks and throttle reasons and times one form with
# nm's resident_benchmark, then runs mmasp run --budget 60 again (as call5), then gpu_resident_test with both images
# (the compute_89 PTX image JIT-compiled by the driver: about 200 s on a fresh machine). Run from the repository root
# with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm/resident_benchmark.xz nm/mmasp.xz nm/gpu_resident_test.xz && chmod +x nm/*)
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv
$G/nm/resident_benchmark --form m16n8k16.row.col.f32.f16 --host-cases 0 --seconds 0.15 | tail -2 | cut -c1-130
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
W=/tmp/b-nm && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s.%N)
timeout 80 $G/nm/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
cp r/summary.md $OUT/budget60-nm-summary6.md
grep -E "time by phase|fewest|GPU-resident path:" r/summary.md | head -4
cd $G/..
s=$(date +%s)
timeout 420 $G/nm/gpu_resident_test > $OUT/gpu_resident_test6.txt 2>&1
echo "gpu_resident_test (nm): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |image:" $OUT/gpu_resident_test6.txt | head -12
