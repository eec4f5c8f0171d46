#!/bin/bash
# Issue #28, thirty-second session, first call: the fp8 kernel's shared-memory wavefronts. (1) fp8-only cubins
# (../2026-11-30-fp8/fp8only.py) alternated in one resident_benchmark (97acc68's, as rb): base (the committed fp8
# kernel, .text byte for byte the full build's), rot (the packing's loads turned by bank_spreading_turn), vec (rot, and
# A's four codes of a register by one 16-byte load: an experiment that assumes the k64 A fragment's contiguous codes);
# (2) ncu on base and rot (one verified launch of 2^20 e4m3 cases), the source page through wavefronts.py.
# From the repository root with gpu-carry21/a carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry21/a
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t1 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 base; run 1 rot; run 1 vec; run 2 vec; run 2 rot; run 2 base
for v in base rot; do
  nvdisasm -g -c $G/$v.cubin 2>&1 | gzip > /tmp/$v.sass.gz
  s=$(date +%s)
  timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section SpeedOfLight \
    -o /tmp/prof-$v $G/rb --image-file $G/$v.cubin --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-$v.txt 2>&1
  echo "== ncu $v: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$v.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$v.ncu-rep --page details > $T/details-$v.txt 2>&1
  ncu -i /tmp/prof-$v.ncu-rep --page raw --csv 2>&1 | gzip > $T/raw-$v.csv.gz
  ncu -i /tmp/prof-$v.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $T/source-$v.csv.gz
  python3 $E/2026-11-30b-banks/wavefronts.py $T/source-$v.csv.gz /tmp/$v.sass.gz 1048576 mmasp_resident_lean_fp8 > $T/wavefronts-$v.txt 2>&1
  grep -A25 "^total a case" $T/wavefronts-$v.txt
done
tar czf $OUT/call1.tgz -C $T .
