#!/bin/bash
# Issue #28, seventeenth session, fifth call: the m16n8k32 f16 and bf16 forms (the narrow kernel, 64 registers, 32
# warps) with fewer, larger warps, now that their tables are small (the eleventh round tried 24 warps of 80 registers
# when the arena was 245 KB: bf16 x1.05, f16->f32 x1.01, f16->f16 x0.99, ../2026-11-27f-h100/call8.sh). Variant
# cubins of 258bd26's kernels, only the narrow kernel's bounds changed: n896 = (896, 1), 72 registers, 28 warps; n768
# = (768, 1), 80 registers, 24 warps; base = main's cubin (1024: 64 registers, 32 warps). resident_benchmark rb6 =
# 258bd26 plus the host reading the narrow kernel's block size from the kernel (as it reads the fp8 kernel's).
# p1 base n896 n768, p2 the reverse. Run from the repository root with gpu-carry11 carried (v6/).
set -u
G=$PWD/gpu-carry11
(cd $G/v6 && xz -d -f -k *.xz && chmod +x rb6)
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-n896 p1-n768 p2-n768 p2-n896 p2-base; do
  $G/v6/rb6 --form m16n8k32.row.col.f --host-cases 0 --seconds 0.3 --image-file $G/v6/${pk#*-}.cubin > /tmp/t/table5-$pk.txt 2>&1
  echo "$pk: exit $?; $(grep -c NOT /tmp/t/table5-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table5-$pk.txt)"
done
tar czf $OUT/tables5.tgz -C /tmp/t .
