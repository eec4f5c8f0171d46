#!/bin/bash
# Issue #28: the kernel of 4cce479 (base), s4 (e174bb0: codes looked up in tables) and s5 (s4 + two SplitMix outputs
# per round in draw_run_of_width, a sampler's class read as one 16-byte record), alternated twice on six forms in one
# call; then gpu_resident_test with s5. Run from the repository root with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s4/resident_benchmark.xz s5/resident_benchmark.xz s5/gpu_resident_test.xz; do xz -d -f $f; done; chmod +x resident_benchmark_base s4/* s5/*)
exec > >(tee -a "$OUT/step4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4" \
         "ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8" "ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.u8"; do
  for b in resident_benchmark_base s4/resident_benchmark s5/resident_benchmark; do
    printf "%-24s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
s=$(date +%s); timeout 200 $G/s5/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test $(( $(date +%s) - s )) s"
