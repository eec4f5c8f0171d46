#!/bin/bash
# Issue #28, eleventh session: whether the m16n8k128 4-bit forms (the dense kernels since the ninth round, 20 warps a
# multiprocessor) gain from the phase barrier the float pairs keep (resident.cpp: integer forms lost by it in the
# third round, with the lean kernel and 16 warps). Runtime choice, one binary (gpu-carry9/n3; its dense kernels are
# byte for byte HEAD's): --phase-barrier float (what mmasp run does), on, on, float.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in n3/*.xz; do xz -d -f -k "$f"; done; chmod +x n3/*)
exec > >(tee -a "$OUT/measure4.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/t
B=$G/n3/resident_benchmark
for pk in p1-float p1-on p2-on p2-float; do
  $B --form m16n8k128 --host-cases 0 --seconds 0.2 --phase-barrier ${pk#*-} > /tmp/t/k128-$pk.txt 2>&1
  echo "k128 $pk: exit $?"
done
tar czf $OUT/tables.tgz -C /tmp/t .
mean() { cat /tmp/t/k128-p?-$1.txt | awk '$1 ~ /^mma/ {s += $2; n++} END {printf "%.4g", s / n}'; }
echo "mean verified/s of the k128 forms: float $(mean float), on $(mean on)"
