#!/bin/bash
# Model-guided differential fuzzing on the GPU: one campaign per family, the four at once on one H100 (each its own
# process and context), 570 s each; beside each, random generation for the same seconds (bench/model_event_coverage).
set -u
G=$PWD/gpu-carry
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:allow_user_segv_handler=1
mkdir -p /tmp/events
for family in f16 bf16 tf32 fp8; do
  mkdir -p /tmp/corpus-$family
  $G/model_event_coverage --seconds 570 --family $family > /tmp/events/random-$family.txt 2>&1 &
  $G/gpu_model_fuzz -max_total_time=570 -timeout=10 -print_final_stats=1 -artifact_prefix=/tmp/events/$family- --gpu \
    --family=$family --events-out=/tmp/events/$family.events --case-dir=/tmp/events /tmp/corpus-$family > /tmp/events/fuzz-$family.log 2>&1 &
done
wait
for family in f16 bf16 tf32 fp8; do
  echo "== $family"; grep -E "gpu_model_fuzz|stat::|DONE|ERROR|deadly|differs" /tmp/events/fuzz-$family.log | tail -9
  head -1 /tmp/events/random-$family.txt
done
ls /tmp/events
tar czf $OUT/campaign.tgz -C /tmp events
