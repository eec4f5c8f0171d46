#!/bin/bash
# The f16-D subnormal_rounding rule of 008e8ba on hardware: characterize the 8 f16-D pairs (f16 x f16 -> f16, k16 and
# k32, mma.sp and ordered, both selectors) on one H100 with the built-in table off, as 2026-11-25-own-model did for all
# 56 pairs (where these 8 left subnormal_rounding = nearest-even open). Run from the repository root, gpu-carry5 carried.
set -u
G=$PWD/gpu-carry5
(cd $G && for f in mmasp.xz; do xz -d -f $f; done && chmod +x mmasp)
exec > >(tee -a "$OUT/characterize.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cd /tmp && s=$(date +%s)
MMASP_BUILTIN_MODELS=off $G/mmasp characterize --threads 16 --cases 5000 --filter '*.f16.f16.f16.f16' \
  --save $OUT/f16d-record.json --out /tmp/chr
echo "characterize: exit $? in $(( $(date +%s) - s )) s"
