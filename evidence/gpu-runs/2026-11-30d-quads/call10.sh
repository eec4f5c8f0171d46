#!/bin/bash
# Issue #28, thirty-fourth session, tenth call: 5070057's resident_benchmark on the eight fp8 forms with the phase
# barrier on (the float pairs' default) and off (--phase-barrier off), three rounds: whether the barrier pays now
# that the judge's pass 1 is shorter. From the repository root with gpu-carry23/w carried (rb.xz).
set -u
G=$PWD/gpu-carry23/w
(cd $G && xz -d -c rb.xz > rb && chmod +x rb) || exit 1
T=/tmp/t10 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call10.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass barrier
  s=$(date +%s)
  $G/rb --phase-barrier $2 --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-60)"
}
run 1 on; run 1 off; run 2 off; run 2 on; run 3 on; run 3 off
tar czf $OUT/call10.tgz -C $T .
