#!/bin/bash
# Issue #28, thirty-fourth session, sixth call, on the build of 5070057 (new) and c997a7d's (hd): (1) mmasp selftest
# --faults --cases 300 --threads 16 (new); (2) ncu on the new fp8 kernel (annotate.py); (3) mmasp run --backend gpu
# --budget 60 --seed 1, hd then new, each after a discarded 5 s warm-up of its own build, each with the modules its
# own mmasp prepare --target sm_90a made. One tgz back.
# From the repository root with gpu-carry23/e carried (all.tar.xz: mmasp, mmasp-hd, rb, modules, modules-hd).
set -u
G=$PWD/gpu-carry23/e
E=$PWD/evidence/gpu-runs
R=$PWD
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb mmasp mmasp-hd) || exit 1
T=/tmp/t6 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 150 $G/mmasp selftest --faults --cases 300 --threads 16 > $T/selftest6.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest6.txt
python3 $E/2026-11-29e-c-words/extract_cubin.py $G/rb /tmp/new.cubin
nvdisasm -g -c /tmp/new.cubin 2>&1 | gzip > /tmp/new.sass.gz
s=$(date +%s)
timeout 120 ncu --clock-control none -k "regex:lean_fp8\$" --launch-skip 3 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
  -o /tmp/prof-fp8 $G/rb --form m16n8k64.row.col.f32.e4m3.e4m3.f32 --host-cases 0 --seconds 0.05 > /tmp/ncu-fp8.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"; grep -E "NOT MEASURED|==ERROR==" /tmp/ncu-fp8.txt | cut -c1-160 | head
ncu -i /tmp/prof-fp8.ncu-rep --page details > $T/details6-fp8.txt 2>&1
ncu -i /tmp/prof-fp8.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > /tmp/source-fp8.csv.gz
python3 $E/2026-11-29h-branches/annotate.py /tmp/source-fp8.csv.gz /tmp/new.sass.gz 1048576 mmasp_resident_lean_fp8 2>&1 | gzip > $T/annotated6-fp8.txt.gz
grep -E "Warp Cycles Per Issued|Eligible Warps|Issued Warp" $T/details6-fp8.txt
budget() {  # build binary modules
  W=/tmp/b-warm-$1 && rm -rf $W && mkdir -p $W && cd $W
  timeout 30 $G/$2 run --backend gpu --modules $G/$3 --budget 5 --seed 2 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "warm-up $1: exit $?"
  W=/tmp/b-$1 && rm -rf $W && mkdir -p $W && cd $W
  s=$(date +%s)
  timeout 90 $G/$2 run --backend gpu --modules $G/$3 --budget 60 --seed 1 --findings $R/findings/findings.json --out r > r.log 2>&1
  echo "mmasp run --budget 60 ($1): exit $? in $(( $(date +%s) - s )) s"
  cp r/summary.md $T/budget60-$1-summary6.md; gzip -c r/run.json > $T/budget60-$1-run6.json.gz
  grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -5
  cd $R
}
budget hd mmasp-hd modules-hd
budget new mmasp modules
tar czf $OUT/call6.tgz -C $T .
