#!/bin/bash
# Issue #28: the kernel of 4cce479 (base), s2 (step1.sh: fp8's compile-time blocks and 32-bit product sums in the
# kernel every pair shares) and s3 (the same, with the fp8 walk in a kernel of its own, mmasp_resident_lean_fp8, 512
# threads), alternated twice on four forms in one call; then gpu_resident_test with s3. Run from the repository root
# with gpu-carry6/ carried.
set -u
G=$PWD/gpu-carry6
(cd $G && for f in resident_benchmark_base.xz s2/resident_benchmark.xz s3/resident_benchmark.xz s3/gpu_resident_test.xz; do xz -d -f $f; done; chmod +x resident_benchmark_base s2/* s3/*)
exec > >(tee -a "$OUT/step2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for round in 1 2; do
for f in "ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16" "ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16" \
         "ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3" "ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4"; do
  for b in resident_benchmark_base s2/resident_benchmark s3/resident_benchmark; do
    printf "%-24s" $b; $G/$b --form "$f" --host-cases 0 --seconds 0.25 | tail -n 1 | cut -c1-150
  done
done
done
s=$(date +%s); timeout 200 $G/s3/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -6; echo "gpu_resident_test $(( $(date +%s) - s )) s"
