#!/bin/bash
# Issue #28, twelfth session, third call (an H100): what occupancy is worth to the forms below their targets.
# resident_benchmark --max-warps (this commit's benchmark, 412c326's kernels): fp8 at 12 and 16 warps a block (one block
# per SM: 128 registers), the m16n8k32 f16/bf16 forms at 16, 20 and 24 (the 768-thread kernel), m16n8k16 f16->f32 at 24,
# 28 and 32; each count twice, in the order up then down. Run from the repository root with gpu-carry10 carried.
set -u
G=$PWD/gpu-carry10
(cd $G/mw && xz -d -f -k resident_benchmark.xz && chmod +x resident_benchmark)
exec > >(tee -a "$OUT/call3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
run() {   # form warps pass
  $G/mw/resident_benchmark --form "$1" --max-warps $2 --host-cases 0 --seconds 0.2 > /tmp/t/mw-$3-$2-${1//[^a-z0-9]/_}.txt 2>&1
  echo "$1 at most $2 warps ($3): exit $?; $(head -1 /tmp/t/mw-$3-$2-${1//[^a-z0-9]/_}.txt | grep -o 'at most.*')"
}
for w in 12 16; do run m16n8k64.row.col.f32.e4m3.e4m3 $w p1; done
for w in 16 12; do run m16n8k64.row.col.f32.e4m3.e4m3 $w p2; done
for w in 16 20 24; do run m16n8k32.row.col.f $w p1; done
for w in 24 20 16; do run m16n8k32.row.col.f $w p2; done
for w in 24 28 32; do run m16n8k16.row.col.f32.f16 $w p1; done
for w in 32 28 24; do run m16n8k16.row.col.f32.f16 $w p2; done
tar czf $OUT/tables3.tgz -C /tmp/t .
for f in /tmp/t/*.txt; do awk -v f=$(basename $f .txt) '$1 ~ /^mma/ {printf "%-60s %-70s %s %s %s %s\n", f, $1, $2, $3, $4, $5}' $f; done
