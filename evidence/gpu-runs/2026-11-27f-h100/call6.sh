#!/bin/bash
# Issue #28, twelfth session, sixth call (an H100): the narrow words over the codes with the launch's shared memory
# sized by the kernel chosen (call5's gpu_resident_test failed in the fault test: a narrow_over_codes pair that a
# numerics or register fault sends to the general kernel was launched with the over-codes kernels' smaller warp
# room, an illegal address). oc = this step's build (gpu-carry10/oc), sp = 412c326's: gpu_resident_test and
# mmasp selftest --faults on the GPU with oc; then every form, sp then oc (each binary with its own image).
set -u
G=$PWD/gpu-carry10
(cd $G && for f in sp/*.xz oc/*.xz; do xz -d -f -k "$f"; done; chmod +x sp/* oc/*)
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout 300 $G/oc/gpu_resident_test > $OUT/gpu_resident_test6.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_resident_test6.txt | head
s=$(date +%s)
timeout 120 $G/oc/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest6.txt 2>&1
echo "selftest exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest6.txt | tail -2
rm -rf /tmp/t && mkdir -p /tmp/t
for k in sp oc; do
  $G/$k/resident_benchmark --host-cases 0 --seconds 0.2 > /tmp/t/all-$k.txt 2>&1
  echo "all $k: exit $?"
done
tar czf $OUT/tables6.tgz -C /tmp/t .
