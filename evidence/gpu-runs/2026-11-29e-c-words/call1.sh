#!/bin/bash
# Issue #28, twenty-seventh session, first call: this round's build (nw: C of the f16 kernels' one-block judge as an
# f32 word, one term more of the passes) against HEAD's own cubin (hd: the build of 6768892, whose kernels 0e615e1
# keeps byte for byte), run by nw's resident_benchmark (stripped, its own cubin zeroed) --image-file. The f16 and bf16
# forms (--form f16 matches both; bf16's kernels are hd's byte for byte, the control) alternated hd nw nw hd, then
# every form once each way; nw's gpu_resident_test on its cubin (device cases equal host cases for every pair, the
# refusals, many cases without a deviation, every catalogue fault), the rare fault (1 case in 10^8, 60 s, m16n8k16
# f16->f32 ordered: a kernel this round changed) on nw's cubin, and ncu's instruction count of the k16 f16 kernel.
# From the repository root with gpu-carry16 carried (nw/{resident_benchmark,gpu_resident_test}.xz, v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry16
(cd $G && for f in nw/*.xz; do xz -d -f -k $f; done && chmod +x nw/* && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/nw/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-nw 2-nw 2-hd 3-hd 3-nw 4-nw 4-hd; do
  run f16 ${pk%-*} ${pk#*-} f16
done
for pk in 1-hd 1-nw; do
  run all ${pk%-*} ${pk#*-}
done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
s=$(date +%s)
timeout 120 $G/nw/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test1.txt 2>&1
echo "gpu_resident_test (cubin, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test1.txt
s=$(date +%s)
timeout 100 $G/nw/resident_benchmark --image-file $G/v/nw.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare1.txt 2>&1
echo "rare fault (nw): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare1.txt
E=$PWD/evidence/gpu-runs
s=$(date +%s)
timeout 150 ncu --clock-control none -k "regex:lean_k16_f16" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats -o /tmp/prof1 $G/nw/resident_benchmark --image-file $G/v/nw.cubin \
  --form m16n8k16.row.col.f32.f16.f16.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu1.txt 2>&1
echo "== ncu (nw k16 f16): exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu1.txt | cut -c1-160 | head
ncu -i /tmp/prof1.ncu-rep --page details > $OUT/details1-k16f16.txt 2>&1
ncu -i /tmp/prof1.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source1.csv.gz
python3 $E/2026-11-28g-stalls/opcodes.py /tmp/source1.csv.gz 1048576 45 > $OUT/opcodes1-k16f16.txt 2>&1
head -3 $OUT/opcodes1-k16f16.txt; grep -E "Issue Slots Busy|Eligible Warps|No Eligible" $OUT/details1-k16f16.txt | head -4
