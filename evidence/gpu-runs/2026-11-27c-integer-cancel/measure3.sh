#!/bin/bash
# Issue #28, ninth session, third call, on one GPU: vd (the integer cancellation's C from the dense judge's bytes: one
# spread and one dot product per element, instead of cancelled_integer_c's product loop) against new (this session's
# build, cancelled_integer_c), both run by new's binary (vd loaded with --image-file; the tables are the same, and
# the benchmark's self-check compares each form's cases and D with the host's). The integer and float forms, new then
# vd, then vd then new. Run from the repository root with gpu-carry8 carried.
set -u
G=$PWD/gpu-carry8
(cd $G && xz -d -f -k n/*.xz x/vd.cubin.xz; chmod +x n/*)
exec > >(tee -a "$OUT/measure3.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
run() { for f in .s32 .f16 .bf16 .tf32; do $G/n/resident_benchmark "$@" --form "$f" --host-cases 0 --seconds 0.2 | grep -E "^mma"; done; }
s=$(date +%s)
run > $OUT/table3-all-new.txt; run --image-file $G/x/vd.cubin > $OUT/table3-all-vd.txt
run --image-file $G/x/vd.cubin > $OUT/table3-again-vd.txt; run > $OUT/table3-again-new.txt
echo "4 passes: $(( $(date +%s) - s )) s"
grep -c "NOT MEASURED" $OUT/table3-*.txt
