#!/bin/bash
# mmasp selftest --faults on the GPU after the selftest learned "unseeable here" (every sm_90 pair has a bit-exact
# model, so nothing should be listed as unseeable and every fault must still be caught where it changed a result).
set -u
G=$PWD/gpu-carry
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/selftest-gpu.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s); timeout 240 $G/mmasp selftest --faults --cases 300 > $OUT/selftest-gpu.txt 2>&1; echo "selftest exit $? in $(( $(date +%s) - s )) s"
head -1 $OUT/selftest-gpu.txt; tail -2 $OUT/selftest-gpu.txt; grep -c "UNSEEABLE" $OUT/selftest-gpu.txt
