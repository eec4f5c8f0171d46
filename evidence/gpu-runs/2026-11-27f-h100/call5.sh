#!/bin/bash
# Issue #28, twelfth session, fifth call (an H100): the narrow words over the codes (PairTables::narrow_over_codes,
# decode_narrow_over_codes; fp8's own kernel and kResidentLeanNarrowKernel for the m16n8k32 f16/bf16 forms). sp =
# 412c326's build (gpu-carry10/sp), oc = this step's (gpu-carry10/oc), each binary with its own image: the 14 forms
# that moved, sp, oc, oc, sp; then oc's k32 forms at 24 and 28 warps (--max-warps) to see what the warps give; then
# gpu_resident_test with oc (every pair's device cases and D against the host's, every catalogue fault).
set -u
G=$PWD/gpu-carry10
(cd $G && for f in sp/*.xz oc/*.xz; do xz -d -f -k "$f"; done; chmod +x sp/* oc/*)
exec > >(tee -a "$OUT/call5.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rm -rf /tmp/t && mkdir -p /tmp/t
for pk in p1-sp p1-oc p2-oc p2-sp; do
  for f in m16n8k32.row.col.f m16n8k64.row.col.f32.e; do
    $G/${pk#*-}/resident_benchmark --form $f --host-cases 0 --seconds 0.2 | grep -E '^mma|NOT' >> /tmp/t/moved-$pk.txt
  done
  echo "$pk: done"
done
for w in 24 28; do
  $G/oc/resident_benchmark --form m16n8k32.row.col.f --max-warps $w --host-cases 0 --seconds 0.2 | grep -E '^mma|NOT' > /tmp/t/k32-oc-w$w.txt
done
tar czf $OUT/tables5.tgz -C /tmp/t .
for k in sp oc; do
  echo "$k, mean verified/s, drawn/s, drawn+run/s, judged/s:"
  cat /tmp/t/moved-p?-$k.txt | awk '$1 ~ /^mma/ {f=$1; v[f]+=$2; d[f]+=$3; r[f]+=$4; j[f]+=$5; n[f]++} END {for (f in v) printf "  %-72s %.4g %.4g %.4g %.4g\n", f, v[f]/n[f], d[f]/n[f], r[f]/n[f], j[f]/n[f]}' | sort
done
for w in 24 28; do echo "oc at most $w warps:"; awk '{printf "  %-72s %s %s %s %s\n", $1, $2, $3, $4, $5}' /tmp/t/k32-oc-w$w.txt; done
s=$(date +%s)
MMASP_BINARY=$G/oc/mmasp timeout 300 $G/oc/gpu_resident_test > $OUT/gpu_resident_test.txt 2>&1
echo "gpu_resident_test: exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_resident_test.txt | head
