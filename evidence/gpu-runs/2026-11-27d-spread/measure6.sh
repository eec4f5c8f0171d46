#!/bin/bash
# Issue #28, tenth session, step 6, on one GPU in one call: v6, v5's sources with finish_case and its two new helpers
# inlined by force (in v5 nvcc made finish_case a function of its own: a 712-byte closure in local memory, 1.4-1.5 KB
# ptxas frames, every lean form 30-60 % slower). Its cubin (frames 888 / 776 / 496 / 568 again) is loaded by v5's
# binary (same tables). Every form base (ca24c58's binary and image), v6; the integer, f16, bf16 and tf32 forms again
# v6, base; then gpu_resident_test's cubin tests with v6's cubin. Tables in table6.tgz. Run from the repository root
# with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/resident_benchmark.xz v5/resident_benchmark.xz v5/gpu_resident_test.xz v5/mmasp.xz v6/*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v5/*)
exec > >(tee -a "$OUT/measure6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
T=$(mktemp -d)
run() {
  local k=$1; shift
  if [ $k = base ]; then $G/base/resident_benchmark --host-cases 0 --seconds 0.2 "$@"
  else $G/v5/resident_benchmark --image-file $G/v6/resident.cubin --host-cases 0 --seconds 0.2 "$@"; fi
}
for k in base v6; do
  echo "== $k, every form"; s=$(date +%s)
  run $k > $T/table6-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v6 base; do
  for f in .s32 .f16 .bf16 .tf32; do run $k --form "$f" | grep -E "^mma|NOT MEASURED"; done > $T/table6-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
grep -c "NOT MEASURED" $T/*.txt
tar czf $OUT/table6.tgz -C $T .
export MMASP_BINARY=$G/v5/mmasp
s=$(date +%s); MMASP_RESIDENT_CUBIN_FILE=$G/v6/resident.cubin timeout 200 $G/v5/gpu_resident_test --gtest_filter='*cubin*' 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test, v6's cubin: $(( $(date +%s) - s )) s"
