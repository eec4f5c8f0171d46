#!/bin/bash
# Issue #28, eleventh session, third step: the control. measure1 (the narrow kernel at 1,024 threads, 64 registers)
# and measure2 (896 threads, 72 registers) made the m16n8k32 f16 and bf16 forms x0.87-x0.92 and x0.82-x0.89, and their
# drawn/s fell too, though the draw is the same code. Here the narrow kernel runs 768 threads (80 registers), the
# 768-thread lean kernel's shape: what the narrow kernel's own code costs at the same warps. One binary
# (gpu-carry9/n3); --narrow-over-nibbles off, on, on, off.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in n3/*.xz; do xz -d -f -k "$f"; done; chmod +x n3/*)
exec > >(tee -a "$OUT/measure3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/t
B=$G/n3/resident_benchmark
for pk in p1-off p1-on p2-on p2-off; do
  $B --form m16n8k32.row.col.f --host-cases 0 --seconds 0.2 --narrow-over-nibbles ${pk#*-} > /tmp/t/k32-$pk.txt 2>&1
  echo "k32 floats $pk: exit $?"
done
tar czf $OUT/tables.tgz -C /tmp/t .
mean() { cat /tmp/t/k32-p?-$1.txt | awk '$1 ~ /^mma/ {s += $2; n++} END {printf "%.4g", s / n}'; }
off=$(mean off); on=$(mean on); echo "mean verified/s of the k32 float forms: off $off, on $on"
