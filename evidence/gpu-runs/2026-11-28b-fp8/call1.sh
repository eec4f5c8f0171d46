#!/bin/bash
# Issue #28, seventeenth session, first call: does the fp8 kernel gain from more warps? Its __launch_bounds__(512, 1)
# gives 128 registers and 16 warps a multiprocessor (23 fit in shared memory). Variant cubins of main's kernels
# (8bf1726; only the fp8 kernel's bounds differ): f640 = (640, 1), 96 registers, 20 warps; f768 = (768, 1), 80
# registers, 20 warps too (shared memory holds 23, the host steps by 4). resident_benchmark rb is main plus the host
# reading the fp8 kernel's block size from the kernel (cuFuncGetAttribute), so that a cubin with other bounds runs at
# its own size. f640w16: f640 held to 16 warps (--max-warps 16), 96 registers at the base's warps. Alternated
# p1: base f640 f768 f640w16, p2: the reverse. Run from the repository root with gpu-carry11 carried (v17/).
set -u
G=$PWD/gpu-carry11
(cd $G/v17 && xz -d -f -k *.xz && chmod +x rb)
exec > >(tee -a "$OUT/call1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-f640 p1-f768 p1-f640w16 p2-f640w16 p2-f768 p2-f640 p2-base; do
  k=${pk#*-}; extra=""
  case $k in base) c=base;; f640) c=f640;; f768) c=f768;; f640w16) c=f640; extra="--max-warps 16";; esac
  $G/v17/rb --form .e --host-cases 0 --seconds 0.3 --image-file $G/v17/$c.cubin $extra > /tmp/t/table1-$pk.txt 2>&1
  echo "$pk: exit $?; $(grep -c NOT /tmp/t/table1-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table1-$pk.txt)"
done
tar czf $OUT/tables1.tgz -C /tmp/t .
