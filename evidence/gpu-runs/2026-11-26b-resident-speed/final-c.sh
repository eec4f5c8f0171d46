#!/bin/bash
# Issue #28, closing measurements of this session's final kernel (s5, the drawing of step4) beside 4cce479's (base) on
# one H100 in one call: every sm_90 form (selector 0), one table after the other; four forms alternated; a D bit
# flipped in 1 of 10^8 cases for 60 s (gpu_resident_test passed with s5 in step4.log). Run from the repository root with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s5/resident_benchmark.xz ; do xz -d -f $f; done; chmod +x resident_benchmark_base s5/*)
exec > >(tee -a "$OUT/final-c.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in resident_benchmark_base s5/resident_benchmark; do
  name=before; [ $b = s5/resident_benchmark ] && name=after
  echo "== $b, every form"; s=$(date +%s); $G/$b --host-cases 0 --seconds 0.2 > $OUT/table-final5-$name.txt; echo "exit $? in $(( $(date +%s) - s )) s"
done
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base s5/resident_benchmark; do
    printf "%-24s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
$G/s5/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 | tail -1
