#!/bin/bash
# Issue #28, twelfth session, first call (an H100): (1) the tenth round's change on the card the issue names: the
# m16n8k128 forms with ee66ae5's build (base) and the byte-permute spread's (sp, 480dd6b; 412c326's kernels are byte for
# byte the same), base, sp, sp, base; (2) every form with sp; (3) where an fp8 and an m16n8k32 bf16 case's instructions
# and stalls go now: ncu source counters of the first check launch (2^20 cases; --launch-skip 3 as in
# ../2026-11-27c-integer-cancel/profile.sh) with 412c326's cubin loaded by sp's benchmark, joined with its line info by
# ../2026-11-23d-phases/lines.py, and the launch's warp-state and scheduler sections; (4) the rare fault with sp.
# Run from the repository root with gpu-carry10 carried.
set -u
G=$PWD/gpu-carry10
(cd $G && for f in base/*.xz sp/*.xz cur.cubin.xz; do xz -d -f -k "$f"; done; chmod +x base/* sp/*)
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-sp p2-sp p2-base; do
  $G/${pk#*-}/resident_benchmark --form m16n8k128 --host-cases 0 --seconds 0.2 > /tmp/t/k128-$pk.txt 2>&1
  echo "k128 $pk: exit $?"
done
mean() { cat /tmp/t/k128-p?-$1.txt | awk '$1 ~ /^mma/ {s += $2; n++} END {printf "%.4g", s / n}'; }
echo "mean verified/s of the k128 forms: base $(mean base), sp $(mean sp)"
$G/sp/resident_benchmark --host-cases 0 --seconds 0.2 > /tmp/t/all-sp.txt 2>&1
echo "all sp: exit $?"
tar czf $OUT/tables.tgz -C /tmp/t .
nvdisasm -g -c $G/cur.cubin 2>&1 | gzip > /tmp/resident.sass.gz
i=0
for f in ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3 ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16; do
  i=$((i+1))
  timeout 200 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section InstructionStats --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o /tmp/prof$i $G/sp/resident_benchmark --image-file $G/cur.cubin \
    --form "$f" --host-cases 0 --seconds 0.05 > /tmp/ncu$i.txt 2>&1
  echo "== $f: ncu exit $?"; grep -E "NOT MEASURED|^mma" /tmp/ncu$i.txt | cut -c1-120
  k=$(ncu -i /tmp/prof$i.ncu-rep --page details 2>&1 | grep -oE "mmasp_resident[a-z_0-9]*" | head -1)
  ncu -i /tmp/prof$i.ncu-rep --page details > $OUT/details$i.txt 2>&1
  grep -E "Grid Size|Block Size|Executed Ipc A|Issue Slots Busy|Theoretical Occ|Achieved Occ|Registers Per" $OUT/details$i.txt | head -8
  ncu -i /tmp/prof$i.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source$i.csv.gz
  python3 $PWD/evidence/gpu-runs/2026-11-23d-phases/lines.py /tmp/source$i.csv.gz /tmp/resident.sass.gz 1048576 $k 80 > $OUT/lines$i.txt 2>&1; head -12 $OUT/lines$i.txt
done
timeout 90 $G/sp/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare.txt 2>&1
echo "rare fault: exit $?"; tail -3 $OUT/rare.txt
