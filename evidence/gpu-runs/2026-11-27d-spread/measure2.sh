#!/bin/bash
# Issue #28, tenth session, step 2, on one GPU in one call: does separating the integer and float pairs' lean kernels
# help? Experiment cubins built from v1's sources (dec2265) and loaded by v1's binary (--image-file; same tables):
# v4i, whose lean kernels compile only the integer judge (the narrow float branch removed), run on the integer forms;
# v4i5, the same with the 768-thread lean kernel bounded to 512 threads (so ptxas may give it 128 registers; the
# m16n8k128 4-bit pairs, whose shared memory holds 16 warps, run it with 512), run on those forms; v4f, whose lean
# kernels compile only the narrow float judge (the integer branch removed), run on the f16, bf16 and tf32 forms. Each
# against v1's embedded image, both orders. Run from the repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in */*.xz; do xz -d -f -k "$f"; done; chmod +x v1/*)
exec > >(tee -a "$OUT/measure2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
run() {   # run KERNEL FORM...: v1's binary with v1's image or the variant's cubin, the forms matching each FORM
  local k=$1; shift
  local image=(); [ $k != v1 ] && image=(--image-file $G/$k/resident.cubin)
  for f in "$@"; do $G/v1/resident_benchmark "${image[@]}" --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma|NOT MEASURED"; done
}
s=$(date +%s)
for pass in 1 2; do
  ints="v1 v4i v4i5"; floats="v1 v4f"
  [ $pass = 2 ] && ints="v4i5 v4i v1" && floats="v4f v1"
  for k in $ints; do
    if [ $k = v4i5 ]; then run $k .m16n8k128. > $OUT/table2-p$pass-$k.txt; else run $k .s32 > $OUT/table2-p$pass-$k.txt; fi
  done
  for k in $floats; do run $k .f16 .bf16 .tf32 >> $OUT/table2-p$pass-$k.txt; done
  echo "pass $pass: $(( $(date +%s) - s )) s"
done
