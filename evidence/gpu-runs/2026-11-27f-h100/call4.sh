#!/bin/bash
# Issue #28, twelfth session, fourth call (an H100): registers against warps for the m16n8k32 f16/bf16 forms. This
# commit's benchmark, 412c326's kernels: the 768-thread lean kernel (80 registers, 24 warps: what runs them now),
# the 1,024-thread one (64 registers) at 24 warps (--lean-kernel wide --max-warps 24: the same shared memory and L1),
# and at 28 (as many as fit: 204 KB of shared memory, less L1); auto, wide-24, wide-28, wide-28, wide-24, auto.
set -u
G=$PWD/gpu-carry10
(cd $G/mw && xz -d -f -k resident_benchmark.xz && chmod +x resident_benchmark)
exec > >(tee -a "$OUT/call4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-auto p1-w24 p1-w28 p2-w28 p2-w24 p2-auto; do
  case ${pk#*-} in auto) o="";; w24) o="--lean-kernel wide --max-warps 24";; w28) o="--lean-kernel wide";; esac
  $G/mw/resident_benchmark --form m16n8k32.row.col.f $o --host-cases 0 --seconds 0.2 > /tmp/t/k32-$pk.txt 2>&1
  echo "$pk: exit $?; $(head -1 /tmp/t/k32-$pk.txt | grep -o 'phase.*')"
done
tar czf $OUT/tables4.tgz -C /tmp/t .
for k in auto w24 w28; do
  echo "$k, mean verified/s, drawn/s, drawn+run/s, judged/s:"
  cat /tmp/t/k32-p?-$k.txt | awk '$1 ~ /^mma/ {f=$1; v[f]+=$2; d[f]+=$3; r[f]+=$4; j[f]+=$5; n[f]++} END {for (f in v) printf "  %-72s %.4g %.4g %.4g %.4g\n", f, v[f]/n[f], d[f]/n[f], r[f]/n[f], j[f]/n[f]}' | sort
done
