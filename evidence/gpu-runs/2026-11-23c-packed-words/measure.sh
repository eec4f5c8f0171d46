#!/bin/bash
# One step of the #13 work: the GPU-resident tests, the benchmark on representative forms (selector 0; host path
# skipped), and a source-line profile of the m16n8k16 f16->f32 check launch (as profile.sh). Run from the repository
# root with gpu-carry/ carried; $1 names the step.
set -u
G=$PWD/gpu-carry
step=${1:-step}
exec > >(tee -a "$OUT/$step.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s); timeout 120 $G/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -6; echo "gpu_resident_test $(( $(date +%s) - s )) s"
for f in "m16n8k16.row.col.f32.f16" "sp.sync.aligned.m16n8k16.row.col.f16.f16" "sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32" "sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" \
         "sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32" ; do
  $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.2 | tail -n +3
done
if [ "${PROFILE:-1}" = 1 ]; then
  f="sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"
  timeout 200 ncu --clock-control none --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
    --section InstructionStats --section Occupancy -o $OUT/prof $G/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 > $OUT/ncu.txt 2>&1
  echo "ncu exit $?"
  ncu -i $OUT/prof.ncu-rep --page details > $OUT/$step-details.txt 2>&1
  ncu -i $OUT/prof.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/$step-source.csv.gz
  rm -f $OUT/prof.ncu-rep
  grep -E "Warp Cycles Per Issued|Executed Instructions  |Registers Per|Achieved Active" $OUT/$step-details.txt
fi
