#!/bin/bash
# Issue #28, tenth session, step 4, on one GPU in one call: v1s, v1's sources with the dense bytes spread once per case
# in draw_shared_case (before packing; the judge and the cancellation profile's C both read them) instead of in the
# judge and again for a cancellation case: the spread's code once in the kernel instead of twice. Its cubin is loaded
# by v1's binary (same tables). Every form base (ca24c58's binary and image), v1, v1s; the integer, f16, bf16 and
# tf32 forms again in the other order. Tables in table4.tgz. Run from the repository root with gpu-carry9 carried.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in */*.xz; do xz -d -f -k "$f"; done; chmod +x base/* v1/*)
exec > >(tee -a "$OUT/measure4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
T=$(mktemp -d)
run() {   # run KERNEL [args]
  local k=$1; shift
  case $k in
    base) $G/base/resident_benchmark --host-cases 0 --seconds 0.2 "$@" ;;
    v1) $G/v1/resident_benchmark --host-cases 0 --seconds 0.2 "$@" ;;
    *) $G/v1/resident_benchmark --image-file $G/$k/resident.cubin --host-cases 0 --seconds 0.2 "$@" ;;
  esac
}
for k in base v1 v1s; do
  echo "== $k, every form"; s=$(date +%s)
  run $k > $T/table4-all-$k.txt 2>&1; echo "exit $? in $(( $(date +%s) - s )) s"
done
s=$(date +%s)
for k in v1s v1 base; do
  for f in .s32 .f16 .bf16 .tf32; do run $k --form "$f" | grep -E "^mma|NOT MEASURED"; done > $T/table4-again-$k.txt
done
echo "again: $(( $(date +%s) - s )) s"
grep -c "NOT MEASURED" $T/*.txt
tar czf $OUT/table4.tgz -C $T .
