#!/bin/bash
# Issue #28, eighteenth session, first call: the draw without run-time divisions and with f32/s32 C's sampler in
# registers (nd = this session's draw1 build: each lane's metadata noise by draw_in_run_of_width<32>, C's whole-output
# draws by their own loop) against nb (14b2228, main's build). Every form nb, nd, nd, nb; then with nd
# gpu_resident_test's cubin cases and an ncu source-line profile of m16n8k16 f16->f32's first check launch (joined with
# the cubin's line info by ../2026-11-23d-phases/lines.py). Run from the repository root with gpu-carry12 carried
# (base/ = nb, new/ = nd, each resident_benchmark and gpu_resident_test, stripped and xz'd; new/new.cubin.xz).
set -u
G=$PWD/gpu-carry12
(cd $G && xz -d -f -k base/*.xz new/*.xz && chmod +x base/* new/*) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-new p2-new p2-base; do
  s=$(date +%s)
  $G/${pk#*-}/resident_benchmark --host-cases 0 --seconds 0.15 > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table1-$pk.txt)"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
s=$(date +%s)
timeout 120 $G/new/gpu_resident_test --gtest_filter='*cubin*' > $OUT/gpu_resident_test1.txt 2>&1
echo "gpu_resident_test (cubin cases, nd): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test1.txt | head
nvdisasm -g -c $G/new/new.cubin 2>&1 | gzip > /tmp/resident.sass.gz
cp /tmp/resident.sass.gz $OUT/new.sass.gz
f=sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
timeout 150 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section ComputeWorkloadAnalysis -o /tmp/prof $G/new/resident_benchmark --form "mma.sp.$f" --host-cases 0 --seconds 0.05 > /tmp/ncu.txt 2>&1
echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu.txt | cut -c1-120
k=$(ncu -i /tmp/prof.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
ncu -i /tmp/prof.ncu-rep --page details > $OUT/details1.txt 2>&1
grep -E "Issue Slots Busy|Achieved Occ|Registers Per|Eligible Warps|Warp Cycles Per Issued|highest-utilized" $OUT/details1.txt | head -8
ncu -i /tmp/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source.csv.gz
python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source.csv.gz /tmp/resident.sass.gz 1048576 $k 150 > $OUT/lines1.txt 2>&1; head -12 $OUT/lines1.txt
