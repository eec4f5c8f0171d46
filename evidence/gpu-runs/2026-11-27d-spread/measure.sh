#!/bin/bash
# Issue #28, tenth session, step 1, on one GPU in one call: the dense bytes made four at a time (v1: the build with the
# new spread_integer_dense) against the previous commit's build (base: ca24c58, its own embedded image), and v2 (v1's
# sources with draw_run_of_width's bound test only on a run's last output; its cubin loaded by v1's binary, whose
# tables it shares: --image-file). Every form base, v1, v2; the integer, f16 and bf16 forms again v2, v1, base. Then
# gpu_resident_test on v1's binary. Run from the repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in */*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v1/*)
exec > >(tee -a "$OUT/measure.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
run() {   # run NAME [args]: every form, or the forms in $FORMS
  local k=$1; shift
  local bin=$G/v1/resident_benchmark; [ $k = base ] && bin=$G/base/resident_benchmark
  [ $k = v2 ] && set -- --image-file $G/v2/resident.cubin "$@"
  $bin --host-cases 0 --seconds 0.2 "$@"
}
for k in base v1 v2; do
  echo "== $k, every form"; s=$(date +%s)
  run $k > $OUT/table1-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v2 v1 base; do
  for f in .s32 .f16 .bf16; do run $k --form "$f" | grep -E "^mma|NOT MEASURED"; done > $OUT/table1-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
export MMASP_BINARY=$G/v1/mmasp
s=$(date +%s); timeout 200 $G/v1/gpu_resident_test 2>&1 | grep -vE '^\[ *(RUN|OK) ' | tail -4; echo "gpu_resident_test v1 $(( $(date +%s) - s )) s"
