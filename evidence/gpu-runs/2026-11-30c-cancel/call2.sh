#!/bin/bash
# Issue #28, thirty-third session, second call: fp8-only cubins alternated in one resident_benchmark (fb3de22's, as
# rb; its dump check compares 64 cases of each form, C included, with the host's): base33 (the committed fp8 kernel),
# cz2 (call1's: the cancellation C from the value tables copied to static shared memory, fused multiply-adds), cz3
# (cz2, and the chunk column table copied too: the judge's decode and the cancellation C read it there instead of
# through L1), cz4 (cz3 with the value tables as doubles). Then ncu on cz4 (one verified launch of 2^20 e4m3 cases),
# the source page through ../2026-11-29h-branches/annotate.py.
# From the repository root with gpu-carry22/b carried (all.tar.xz: rb and the cubins).
set -u
G=$PWD/gpu-carry22/b
E=$PWD/evidence/gpu-runs
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb) || exit 1
T=/tmp/t2 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant
  s=$(date +%s)
  $G/rb --image-file $G/$2.cubin --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 base33; run 1 cz2; run 1 cz3; run 1 cz4; run 2 cz4; run 2 cz3; run 2 cz2; run 2 base33
for v in cz4; do
  nvdisasm -g -c $G/$v.cubin 2>&1 | gzip > /tmp/$v.sass.gz
  s=$(date +%s)
  timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
    -o /tmp/prof-$v $G/rb --image-file $G/$v.cubin --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-$v.txt 2>&1
  echo "== ncu $v: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-$v.txt | cut -c1-160 | head
  ncu -i /tmp/prof-$v.ncu-rep --page details > $T/details-$v.txt 2>&1
  ncu -i /tmp/prof-$v.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $T/source-$v.csv.gz
  python3 $E/2026-11-29h-branches/annotate.py $T/source-$v.csv.gz /tmp/$v.sass.gz 1048576 mmasp_resident_lean_fp8 2>&1 | gzip > $T/annotated-$v.txt.gz
  grep -E "Warp Cycles Per Issued|Eligible Warps|Executed Ipc A|Issued Warp" $T/details-$v.txt
done
tar czf $OUT/call2.tgz -C $T .
