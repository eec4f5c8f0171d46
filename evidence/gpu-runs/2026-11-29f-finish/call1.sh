#!/bin/bash
# Issue #28, twenty-eighth session, first call: this round's build (fn: f32 elements finished toward zero by the
# device's conversion and one multiplication, and the fp8 kernel's block result chained as an f32 word) against HEAD's
# own cubin (hd: bf6c4f3's build) and the first change alone (c1: a cubin from the same tree without the chain), each
# run by fn's resident_benchmark (stripped, its own cubin zeroed) --image-file. The f16 and bf16 forms (--form f16)
# alternated hd fn fn hd; the eight sm_90 fp8 forms hd c1 fn fn c1 hd; every form hd fn. Then fn's gpu_resident_test on
# its cubin (given as MMASP_RESIDENT_CUBIN_FILE: the carried binary's own is zeroed, to fit the carry), the rare fault (1 case in 10^8, 60 s) on fn's cubin, and ncu's instruction counts of hd's and fn's fp8 and
# k16 f16 kernels (one verified launch of 2^20 cases each).
# From the repository root with gpu-carry17 carried (fn/{resident_benchmark,gpu_resident_test}.xz, v/cubins.tar.xz).
set -u
G=$PWD/gpu-carry17
(cd $G && for f in fn/*.xz; do xz -d -f -k $f; done && chmod +x fn/* && xz -d -c v/cubins.tar.xz | tar x -C v) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 && mkdir -p /tmp/t1
run() {  # prefix pass kernel [form]
  s=$(date +%s)
  $G/fn/resident_benchmark --image-file $G/v/$3.cubin ${4:+--form $4} --host-cases 0 --seconds 0.15 > /tmp/t1/$1-$2-$3.txt 2>&1
  echo "$1 $2-$3: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/$1-$2-$3.txt) not measured; $(grep -c DEVIATIONS /tmp/t1/$1-$2-$3.txt) with deviations; $(grep 'SM clock' /tmp/t1/$1-$2-$3.txt | cut -c1-70)"
}
run warm 0 hd m16n8k16.row.col.f32.f16.f16.f32
for pk in 1-hd 1-fn 2-fn 2-hd; do run f16 ${pk%-*} ${pk#*-} f16; done
for pk in 1-hd 1-c1 1-fn 2-fn 2-c1 2-hd; do run fp8 ${pk%-*} ${pk#*-} m16n8k64.row.col.f32.e; done
for pk in 1-hd 1-fn; do run all ${pk%-*} ${pk#*-}; done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/v/fn.cubin timeout 120 $G/fn/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test1.txt 2>&1
echo "gpu_resident_test (cubin, fn): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test1.txt
s=$(date +%s)
timeout 100 $G/fn/resident_benchmark --image-file $G/v/fn.cubin --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare1.txt 2>&1
echo "rare fault (fn): exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare1.txt
E=$PWD/evidence/gpu-runs
for b in hd fn; do
for k in fp8:m16n8k64.row.col.f32.e4m3.e4m3.f32 k16_f16:m16n8k16.row.col.f32.f16.f16.f32; do
  name=${k%%:*}; form=${k#*:}
  s=$(date +%s)
  timeout 150 ncu --clock-control none -k "regex:lean_$name\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats -o /tmp/prof-$b-$name $G/fn/resident_benchmark --image-file $G/v/$b.cubin \
    --form $form --host-cases 0 --seconds 0.05 > /tmp/ncu-$b-$name.txt 2>&1
  echo "== ncu ($b $name): exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$b-$name.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$b-$name.ncu-rep --page details > $OUT/details1-$b-$name.txt 2>&1
  ncu -i /tmp/prof-$b-$name.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-$b-$name.csv.gz
  python3 $E/2026-11-28g-stalls/opcodes.py /tmp/source-$b-$name.csv.gz 1048576 45 > $OUT/opcodes1-$b-$name.txt 2>&1
  head -3 $OUT/opcodes1-$b-$name.txt; grep -E "Issue Slots Busy|Eligible Warps|No Eligible" $OUT/details1-$b-$name.txt | head -4
done
done
