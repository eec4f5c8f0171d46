#!/bin/bash
# Issue #28, third round, step 1 (s7): layout tables element-major (coalesced loads when packing and judging), the
# draw's field walk rotated per output (no shared-memory bank conflicts for 8- and 32-bit fields); beside s6 (f8f1a47)
# in one call; then s7 without the phase barrier; then gpu_resident_test on s7. Run from the repository root with
# gpu-carry7/ carried.
set -u
G=$PWD/gpu-carry7
(cd $G && xz -d -f -k resident_benchmark_s6.xz && for f in s7/*.xz; do xz -d -f $f; done; chmod +x resident_benchmark_s6 s7/*)
exec > >(tee -a "$OUT/step1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
forms="ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16
ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16 ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32
ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3 ordered_metadata.sync.aligned.m16n8k32.row.col.s32.u8.u8
ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8 ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4
ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"
run() {   # binary, extra options
  for f in $forms; do $G/$1 --form "$f." --host-cases 0 --seconds 0.25 ${2:-} | grep -E "^mma"; done
}
for round in 1 2; do
  echo "== round $round: s6"; run resident_benchmark_s6
  echo "== round $round: s7"; run s7/resident_benchmark
  echo "== round $round: s7 --phase-barrier off"; run s7/resident_benchmark "--phase-barrier off"
done
export MMASP_BINARY=$G/s7/mmasp MMASP_MODULES=$G/modules
s=$(date +%s); timeout 200 $G/s7/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -6; echo "gpu_resident_test $(( $(date +%s) - s )) s"
