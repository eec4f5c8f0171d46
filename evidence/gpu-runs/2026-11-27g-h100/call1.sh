#!/bin/bash
# Issue #28, fourteenth session, first call (an H100): the phase barrier in groups of fewer warps. Today the warps one
# scheduler runs (warp % 4) wait for each other after every case, so they all draw at once and all judge at once.
# A = two barrier groups a scheduler (warp % 8), C = four (warp % 16), B = the scheduler's warps in two halves a phase
# apart (a barrier after drawing and after judging; the odd half waits once first, so one half draws while the other
# judges): variant cubins of 9571a4e's kernels (only the
# barrier's group and thread count differ), loaded by nb (06f14a8's benchmark, whose embedded kernels are 9571a4e's)
# with --image-file. Float forms only (--form .f: integer pairs do not wait, --phase-barrier float), order base, A, B,
# C, C, B, A, base. Run from the repository root with gpu-carry11 carried.
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nb/resident_benchmark.xz A.cubin.xz B.cubin.xz C.cubin.xz && chmod +x nb/*)
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-A p1-B p1-C p2-C p2-B p2-A p2-base; do
  case ${pk#*-} in base) o="";; A) o="--image-file $G/A.cubin";; B) o="--image-file $G/B.cubin";; C) o="--image-file $G/C.cubin";; esac
  s=$(date +%s)
  $G/nb/resident_benchmark $o --form .f --host-cases 0 --seconds 0.15 > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured; $(head -1 /tmp/t/table1-$pk.txt | grep -o 'image [^;]*')"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
