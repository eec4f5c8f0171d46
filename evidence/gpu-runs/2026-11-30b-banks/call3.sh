#!/bin/bash
# Issue #28, thirty-second session, third call: (1) fp8-only cubins alternated in one resident_benchmark (97acc68's,
# as rb): rot and vec as in call1.sh; pl2 (pl of call2.sh with the plane loads addressed by the tag as a byte offset,
# the high plane at a constant offset from the low: pl divided the tag to an index and multiplied it back, two
# instructions a load), plv2 (pl2 with vec's A loads); (2) ncu on pl2 and rot (one verified launch of 2^20 e4m3
# cases): wavefronts.py and annotate.py, their SASS with line numbers back.
# From the repository root with gpu-carry21/c carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry21/c
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t3 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 rot; run 1 vec; run 1 pl2; run 1 plv2; run 2 plv2; run 2 pl2; run 2 vec; run 2 rot
for v in pl2 rot; do
  nvdisasm -g -c $G/$v.cubin 2>&1 | gzip > $T/$v.sass.gz
  s=$(date +%s)
  timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
    -o /tmp/prof-$v $G/rb --image-file $G/$v.cubin --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-$v.txt 2>&1
  echo "== ncu $v: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$v.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$v.ncu-rep --page raw --csv 2>&1 | gzip > $T/raw-$v.csv.gz
  ncu -i /tmp/prof-$v.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $T/source-$v.csv.gz
  python3 $E/2026-11-30b-banks/wavefronts.py $T/source-$v.csv.gz $T/$v.sass.gz 1048576 mmasp_resident_lean_fp8 > $T/wavefronts-$v.txt 2>&1
  python3 $E/2026-11-29h-branches/annotate.py $T/source-$v.csv.gz $T/$v.sass.gz 1048576 mmasp_resident_lean_fp8 2>&1 | gzip > $T/annotated-$v.txt.gz
  grep "^total a case" $T/wavefronts-$v.txt
done
tar czf $OUT/call3.tgz -C $T .
