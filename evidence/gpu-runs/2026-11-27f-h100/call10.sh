#!/bin/bash
# Issue #28, twelfth session, tenth call (an H100): the narrow words over the codes for the narrow pairs that fit 32
# warps already (m16n8k16 f16 and bf16, tf32): with call10-knob.patch (a benchmark option, --narrow-over-codes
# fitting, that sends every narrow pair whose words fit over its codes to the over-codes kernels) on ec9d036's kernels:
# their shared memory falls (f16 k16: 3,968 -> 2,944 bytes a warp) and L1 grows; they run the narrow kernel instead of
# the lean one. auto, fit, fit, auto.
set -u
G=$PWD/gpu-carry10
(cd $G && xz -d -f -k ex/resident_benchmark.xz && chmod +x ex/*)
exec > >(tee -a "$OUT/call10.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-auto p1-fit p2-fit p2-auto; do
  case ${pk#*-} in auto) o="";; fit) o="--narrow-over-codes fitting";; esac
  for f in m16n8k16.row.col.f m16n8k8.row.col.f32.tf32; do
    $G/ex/resident_benchmark --form $f $o --host-cases 0 --seconds 0.2 | grep -E '^mma|NOT' >> /tmp/t/k16-$pk.txt
  done
  echo "$pk: done"
done
tar czf $OUT/tables10.tgz -C /tmp/t .
for k in auto fit; do
  echo "$k, mean verified/s, drawn/s, drawn+run/s, judged/s:"
  cat /tmp/t/k16-p?-$k.txt | awk '$1 ~ /^mma/ {f=$1; v[f]+=$2; d[f]+=$3; r[f]+=$4; j[f]+=$5; n[f]++} END {for (f in v) printf "  %-72s %.4g %.4g %.4g %.4g\n", f, v[f]/n[f], d[f]/n[f], r[f]/n[f], j[f]/n[f]}' | sort
done
grep -h NOT /tmp/t/*.txt | head -3
