#!/bin/bash
# Issue #28, twelfth session, eighth call (an H100): the narrow kernel of the m16n8k32 f16/bf16 forms with 80
# registers at 24 warps (a variant cubin, build/generated/resident_kernels_sm_90a.cu with kResidentLeanNarrowKernel's
# __launch_bounds__(768, 1), loaded by oc's benchmark with --image-file and --max-warps 24: 126 KB of shared memory,
# L1 about 130 KB) against ec9d036's (64 registers, 32 warps, the embedded image): emb, v768, v768, emb.
set -u
G=$PWD/gpu-carry10
(cd $G && for f in oc/resident_benchmark.xz v768.cubin.xz; do xz -d -f -k "$f"; done; chmod +x oc/*)
exec > >(tee -a "$OUT/call8.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-emb p1-v768 p2-v768 p2-emb; do
  case ${pk#*-} in emb) o="";; v768) o="--image-file $G/v768.cubin --max-warps 24";; esac
  $G/oc/resident_benchmark --form m16n8k32.row.col.f $o --host-cases 0 --seconds 0.2 > /tmp/t/k32-$pk.txt 2>&1
  echo "$pk: exit $?; $(head -1 /tmp/t/k32-$pk.txt | grep -o 'image.*')"
done
tar czf $OUT/tables8.tgz -C /tmp/t .
for k in emb v768; do
  echo "$k, mean verified/s, drawn/s, drawn+run/s, judged/s:"
  cat /tmp/t/k32-p?-$k.txt | awk '$1 ~ /^mma/ {f=$1; v[f]+=$2; d[f]+=$3; r[f]+=$4; j[f]+=$5; n[f]++} END {for (f in v) printf "  %-72s %.4g %.4g %.4g %.4g\n", f, v[f]/n[f], d[f]/n[f], r[f]/n[f], j[f]/n[f]}' | sort
done
grep -h NOT /tmp/t/*.txt | head -3
