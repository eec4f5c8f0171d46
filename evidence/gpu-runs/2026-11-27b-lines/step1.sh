#!/bin/bash
# Issue #28, eighth session, step 1: the narrow judge's rounding and encoding in one pass (model::rounded_code, e1)
# against the committed kernel (base), both as cubins loaded by the same resident_benchmark (--image-file), every
# form, then the float forms again in the other order; then gpu_resident_test's cubin tests on e1
# (MMASP_RESIDENT_CUBIN_FILE). Run from the repository root with gpu-carry7/x and gpu-carry7/modules carried.
set -u
X=$PWD/gpu-carry7/x
(cd $X && xz -d -f -k resident_benchmark.xz gpu_resident_test.xz && chmod +x resident_benchmark gpu_resident_test)
exec > >(tee -a "$OUT/step1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in base e1; do
  echo "== all forms: $k"
  $X/resident_benchmark --image-file $X/$k.cubin --host-cases 0 --seconds 0.2 > $OUT/table-all-$k.txt 2>&1; echo "exit $?"
done
for k in e1 base; do
  echo "== float forms again: $k"
  for f in .f16 .bf16 .tf32; do
    $X/resident_benchmark --image-file $X/$k.cubin --form "$f" --host-cases 0 --seconds 0.2 2>&1 | grep -E "^mma" ; done > $OUT/table-again-$k.txt
done
echo "== gpu_resident_test, cubin tests, on e1"
MMASP_RESIDENT_CUBIN_FILE=$X/e1.cubin MMASP_MODULES=$PWD/gpu-carry7/modules timeout 400 $X/gpu_resident_test --gtest_filter='*cubin*' 2>&1 | tail -15
