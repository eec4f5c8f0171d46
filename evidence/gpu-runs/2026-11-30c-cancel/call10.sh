#!/bin/bash
# Issue #28, thirty-third session, tenth call, a lead for the next round: call8.sh's build (978c231's kernels) with
# the phase barrier on (the float pairs' default) and off (resident_benchmark --phase-barrier off), alternated twice:
# whether the barrier still pays now that a cancellation case costs less (the thirtieth round measured off at
# x0.940-x0.954). From the repository root with gpu-carry22/j carried (rb.xz: call8's resident_benchmark).
set -u
G=$PWD/gpu-carry22/j
(cd $G && xz -d -c rb.xz > rb && chmod +x rb) || exit 1
T=/tmp/t10 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call10.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant barrier
  s=$(date +%s)
  $G/rb --phase-barrier $3 --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 1 on float; run 1 off off; run 2 off off; run 2 on float
tar czf $OUT/call10.tgz -C $T .
