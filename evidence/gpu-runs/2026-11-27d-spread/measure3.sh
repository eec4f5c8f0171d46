#!/bin/bash
# Issue #28, tenth session, step 3, on one GPU in one call: v1's integer spread (dec2265) cost the f16 and bf16 k16
# forms 3 % (step 1) though their code did not change. Does keeping the integer code out of the lean kernel's body
# give it back? v1n: spread_integer_dense not inlined (MMASP_SHARED_CODE, a call); v1n2: dense_sum too. Both cubins
# built from v1's sources with that one change and loaded by v1's binary (same tables). Every form base (ca24c58's
# binary and image), v1, v1n, v1n2; the integer, f16, bf16 and tf32 forms again in the other order. Run from the
# repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in */*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v1/*)
exec > >(tee -a "$OUT/measure3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
run() {   # run KERNEL [args]
  local k=$1; shift
  case $k in
    base) $G/base/resident_benchmark --host-cases 0 --seconds 0.2 "$@" ;;
    v1) $G/v1/resident_benchmark --host-cases 0 --seconds 0.2 "$@" ;;
    *) $G/v1/resident_benchmark --image-file $G/$k/resident.cubin --host-cases 0 --seconds 0.2 "$@" ;;
  esac
}
for k in base v1 v1n v1n2; do
  echo "== $k, every form"; s=$(date +%s)
  run $k > $OUT/table3-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v1n2 v1n v1 base; do
  for f in .s32 .f16 .bf16 .tf32; do run $k --form "$f" | grep -E "^mma|NOT MEASURED"; done > $OUT/table3-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
