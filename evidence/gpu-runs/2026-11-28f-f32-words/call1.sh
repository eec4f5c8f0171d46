#!/bin/bash
# Issue #28, twenty-first session, first call. base = this session's build of c317ef3 (main before this round); nw =
# the f32 words build (the fp8 judge's pass 2 by f32 multiplication, narrow::sum_f32_product); vS = base's source with
# the fp8 kernel's instruction switch cut to the eight fp8 forms (a variant cubin, run by base's binary with
# --image-file). The eight fp8 forms base, nw, vS, vS, nw, base; then every gpu_resident_test case with nw.
# Run from the repository root with gpu-carry13 carried (base/resident_benchmark, nw/, vS.cubin).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k base/*.xz nw/*.xz vS.cubin.xz && chmod +x base/* nw/*) || exit 1
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t1 /tmp/o1 && mkdir -p /tmp/t1 /tmp/o1
for pk in e1-base e1-nw e1-vS e2-vS e2-nw e2-base; do
  k=${pk#*-}
  s=$(date +%s)
  if [ $k = vS ]; then
    $G/base/resident_benchmark --image-file $G/vS.cubin --form .e --host-cases 0 --seconds 0.15 > /tmp/t1/table1-$pk.txt 2>&1
  else
    $G/$k/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t1/table1-$pk.txt 2>&1
  fi
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t1/table1-$pk.txt) not measured; $(grep 'SM clock' /tmp/t1/table1-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables1.tgz -C /tmp/t1 .
s=$(date +%s)
timeout 300 $G/nw/gpu_resident_test > /tmp/o1/gpu_resident_test1.txt 2>&1
echo "gpu_resident_test (every case, nw): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" /tmp/o1/gpu_resident_test1.txt
cp /tmp/o1/gpu_resident_test1.txt $OUT/
