#!/bin/bash
# Issue #28, eighth session, step 2: e1c (e1, and the narrow Block's sum of C or an accumulator found in 32 bits)
# against e1 and the committed kernel (base): the f16, bf16 and tf32 forms in two orders, then every form with e1c;
# then gpu_resident_test's cubin tests on e1c. One resident_benchmark, the kernels as cubins (--image-file). Run from
# the repository root with gpu-carry7/x and gpu-carry7/modules carried.
set -u
X=$PWD/gpu-carry7/x
(cd $X && xz -d -f -k resident_benchmark.xz gpu_resident_test.xz *.cubin.xz && chmod +x resident_benchmark gpu_resident_test)
exec > >(tee -a "$OUT/step2.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
float_forms() {
  for f in .f16 .bf16 .tf32; do
    $X/resident_benchmark --image-file $X/$1.cubin --form "$f" --host-cases 0 --seconds 0.2 2>&1 | grep -E "^mma"; done
}
for k in base e1 e1c; do echo "== float forms: $k"; float_forms $k > $OUT/table2-float1-$k.txt; done
for k in e1c e1 base; do echo "== float forms again: $k"; float_forms $k > $OUT/table2-float2-$k.txt; done
echo "== all forms: e1c"
$X/resident_benchmark --image-file $X/e1c.cubin --host-cases 0 --seconds 0.2 > $OUT/table2-all-e1c.txt 2>&1; echo "exit $?"
echo "== gpu_resident_test, cubin tests, on e1c"
MMASP_RESIDENT_CUBIN_FILE=$X/e1c.cubin MMASP_MODULES=$PWD/gpu-carry7/modules timeout 400 $X/gpu_resident_test --gtest_filter='*cubin*' 2>&1 | tail -12
