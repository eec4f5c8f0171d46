#!/bin/bash
# Issue #28, sixteenth session, tenth call (an H100): what must not change, with nm2 (main at d6de420: K, the slot
# classes as bytes, merged): mmasp selftest --faults on the GPU, gpu_execution_test, a D bit flipped in 1 of 10^8
# cases for 60 s, then mmasp run --budget 60 as a new user runs it (all defaults but --seed 1 --backend gpu), with
# its clock record. Then V1, a variant cubin of nm2's kernels (the k32 f16/bf16 judge's 16 products by groups of 8
# where they are by groups of 4: harness/resident_abi.h, one_block_element<16, 8>; variant-V1.patch), loaded by nm2's
# resident_benchmark with --image-file: the k32 float forms base, V1, V1, base. Run from the repository root with
# gpu-carry11 carried (nm2/, modules/, v1.cubin).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm2/*.xz v1.cubin.xz && chmod +x nm2/*)
exec > >(tee -a "$OUT/call10.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
s=$(date +%s)
timeout 200 $G/nm2/mmasp selftest --faults --cases 300 --threads 16 > $OUT/selftest10.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; grep -E "faults:|^mmasp selftest" $OUT/selftest10.txt | tail -2
s=$(date +%s)
MMASP_BINARY=$G/nm2/mmasp timeout 150 $G/nm2/gpu_execution_test > $OUT/gpu_execution_test10.txt 2>&1
echo "gpu_execution_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_execution_test10.txt
s=$(date +%s)
timeout 120 $G/nm2/resident_benchmark --form NO-FORM --rare-fault 100000000 --fault-seconds 60 > $OUT/rare10.txt 2>&1
echo "rare fault: exit $? in $(( $(date +%s) - s )) s"; tail -2 $OUT/rare10.txt
W=/tmp/b-nm2 && rm -rf $W && mkdir -p $W && cd $W
s=$(date +%s.%N)
timeout 80 $G/nm2/mmasp run --backend gpu --modules $G/modules --budget 60 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm2: mmasp run --budget 60: exit $? in $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
cp r/summary.md $OUT/budget60-nm2-summary10.md
grep -E "SM clock while|fewest|GPU-resident path:" r/summary.md | head -4
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-base p1-v1 p2-v1 p2-base; do
  image=""; [ "${pk#*-}" = v1 ] && image="--image-file $G/v1.cubin"
  $G/nm2/resident_benchmark --form m16n8k32.row.col.f --host-cases 0 --seconds 0.15 $image > /tmp/t/table10-$pk.txt 2>&1
  echo "$pk: exit $?; $(grep -c NOT /tmp/t/table10-$pk.txt) not measured; $(grep 'SM clock' /tmp/t/table10-$pk.txt)"
done
tar czf $OUT/tables10.tgz -C /tmp/t .
