#!/bin/bash
# Issue #28, twenty-first session, sixth call (measurement only, nothing committed from it): now that the fp8 judge's
# pass 2 is lighter, does the unrolled group of its block walk want another size? nb = main's build at b566531
# (for_fixed_block<32, 16, 2, 4>); vG8 and vG2 = its source with groups of 8 and of 2 (variant cubins, run by nb's
# binary with --image-file). The eight fp8 forms nb, vG8, vG2, vG2, vG8, nb.
# Run from the repository root with gpu-carry13 carried (nb/resident_benchmark, vG8.cubin, vG2.cubin).
set -u
G=$PWD/gpu-carry13
(cd $G && xz -d -f -k nb/*.xz vG8.cubin.xz vG2.cubin.xz && chmod +x nb/resident_benchmark) || exit 1
exec > >(tee -a "$OUT/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t6 && mkdir -p /tmp/t6
for pk in e1-nb e1-vG8 e1-vG2 e2-vG2 e2-vG8 e2-nb; do
  k=${pk#*-}
  s=$(date +%s)
  if [ $k = nb ]; then
    $G/nb/resident_benchmark --form .e --host-cases 0 --seconds 0.15 > /tmp/t6/table6-$pk.txt 2>&1
  else
    $G/nb/resident_benchmark --image-file $G/$k.cubin --form .e --host-cases 0 --seconds 0.15 > /tmp/t6/table6-$pk.txt 2>&1
  fi
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t6/table6-$pk.txt) not measured; $(grep 'SM clock' /tmp/t6/table6-$pk.txt | cut -c1-70)"
done
tar czf $OUT/tables6.tgz -C /tmp/t6 .
