#!/bin/bash
# Issue #28, thirty-second session, sixth call: 25 warps for the fp8 kernel. rb25 = the committed build's
# resident_benchmark with the host stepping the fp8 kernel's blocks by one warp instead of four (so that a kernel
# bounded at 800 threads runs 25 warps: 25 x 8,832 + 10,240 bytes of shared memory fit 227 KB). fp8-only cubins:
# cur768 (the committed fp8 kernel, .text byte for byte the full build's) and w25 (the same source bounded at 800
# threads: ptxas still gives it 80 registers, a 776-byte frame). Runs: cur768 (24 warps), w25 (25 warps), w25 with
# --max-warps 24 (w25at24: its code at 24 warps), alternated twice.
# From the repository root with gpu-carry21/f carried (all.tar.xz: rb25 and the cubins).
set -u
G=$PWD/gpu-carry21/f
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rb25) || exit 1
T=/tmp/t6 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call6.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass variant cubin [flags]
  s=$(date +%s)
  $G/rb25 --image-file $G/$3.cubin ${4:-} --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep -i 'warps\|threads' $T/fp8-$1-$2.txt | head -2 | cut -c1-120)"
}
run 1 cur768 cur768; run 1 w25 w25; run 1 w25at24 w25 "--max-warps 24"; run 2 w25at24 w25 "--max-warps 24"; run 2 w25 w25; run 2 cur768 cur768
tar czf $OUT/call6.tgz -C $T .
