#!/bin/bash
# Issue #17: a 10-minute model-guided campaign per family on one H100, run as two parts of 300 s (a device call lasts at
# most 10 minutes). The four families at once, each its own process and context; beside each, random generation
# (bench/model_event_coverage) for the same seconds with its own seed per part. Part 2 starts from part 1's corpora
# (carried back as gpu-carry/campaign-part1/) and compares the unions of both parts' events.
#   bash campaign.sh 1     then     bash campaign.sh 2
set -u
G=$PWD/gpu-carry
part=$1
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:allow_user_segv_handler=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/campaign && mkdir -p $W
for family in f16 bf16 tf32 fp8; do
  mkdir -p $W/corpus-$family
  if [ "$part" = 2 ]; then
    tar xzf $G/campaign-part1/campaign.tgz -C /tmp
    random_earlier="--random-events $W/random-$family.part1.events"
    fuzzer_earlier="--fuzzer-events $W/$family.part1.events"
  else
    random_earlier=""; fuzzer_earlier=""
  fi
  $G/gpu_model_fuzz -max_total_time=300 -timeout=10 -print_final_stats=1 -artifact_prefix=$W/$family- --gpu \
    --family=$family --events-out=$W/$family.part$part.events --case-dir=$W $W/corpus-$family > $W/fuzz-$family.part$part.log 2>&1 &
  ( sleep 1; $G/model_event_coverage --seconds 300 --family $family --seed $part --events-out $W/random-$family.part$part.events ) \
    > $W/random-$family.part$part.txt 2>&1 &
done
wait
for family in f16 bf16 tf32 fp8; do
  echo "== $family, part $part"
  grep -E "gpu_model_fuzz|stat::|DONE|ERROR|deadly|differs" $W/fuzz-$family.part$part.log | tail -8
  head -1 $W/random-$family.part$part.txt
  if [ "$part" = 2 ]; then
    # The comparison over both parts (600 s each side); no new cases run (--seconds 0).
    $G/model_event_coverage --seconds 0 --family $family --seed 99 --random-events $W/random-$family.part1.events \
      --random-events $W/random-$family.part2.events --fuzzer-events $W/$family.part1.events \
      --fuzzer-events $W/$family.part2.events > $W/compare-$family.txt 2>&1
    grep -E "^[a-z]|^  " $W/compare-$family.txt | head -40
  fi
done
tar czf $OUT/campaign.tgz -C /tmp campaign
