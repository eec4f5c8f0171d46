#!/bin/bash
# Issue #28, tenth session: why v1 (dec2265, the four-at-a-time spread, reverted) cost m16n8k16 f16->f32 3 % though
# that form's code did not change, and what it saved m16n8k128 s4. ncu counters of the first check launch (2^20 cases;
# the benchmark's launches before it are the self-check's dump and two bare-issue launches, hence --launch-skip 3),
# base (ca24c58's binary and image) and v1 (dec2265's), each form. Run from the repository root with gpu-carry9.
set -u
G=$PWD/gpu-carry9
(cd $G && for f in base/*.xz v1/resident_benchmark.xz; do xz -d -f -k "$f"; done; chmod +x base/* v1/*)
exec > >(tee -a "$OUT/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
m=smsp__inst_executed.sum,smsp__cycles_active.avg,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_local_st.sum,smsp__warps_active.avg.per_cycle_active
for f in ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16 ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4; do
  for k in base v1; do
    echo "== $k $f"
    timeout 150 ncu --clock-control none -k regex:lean --launch-skip 3 --launch-count 1 --metrics $m \
      $G/$k/resident_benchmark --form "$f" --host-cases 0 --seconds 0.05 2>&1 | grep -E "NOT MEASURED|smsp__|mmasp_resident" | sed 's/  */ /g'
  done
done
