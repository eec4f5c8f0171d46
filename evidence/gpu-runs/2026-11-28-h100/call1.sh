#!/bin/bash
# Issue #28, thirteenth session, first call (an H100): the narrow judge's tag at the top of an A word (one shift, then
# one add, finds the B word) and its products aligned by one 64-bit shift (narrow::aligned_at), in a variant cubin
# (v1: build/generated/resident_kernels_sm_90a.cu compiled by nvcc with the build's flags from this step's tree)
# loaded by ec9d036's benchmark with --image-file, against that benchmark's embedded image (base: the kernels of
# d1e2216, byte for byte ec9d036's): every form, base then v1. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k rb.xz v1.cubin.xz && chmod +x rb)
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in all-base all-v1; do
  case ${pk#*-} in base) o="";; v1) o="--image-file $G/v1.cubin";; esac
  s=$(date +%s)
  $G/rb $o --host-cases 0 --seconds 0.15 > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
