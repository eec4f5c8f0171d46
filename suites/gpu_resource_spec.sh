#!/usr/bin/env bash
# Writes CTest's resource spec file for this host's GPUs (one "gpus" resource of one slot per GPU), for
# `ctest -L gpu -j N --resource-spec-file FILE`: each GPU test then gets a GPU of its own (suites/gpu_resource.h).
# Usage: gpu_resource_spec.sh [FILE]   (default build/gpu-resources.json). No GPU: an empty list, and says so.
set -eu
out=${1:-build/gpu-resources.json}
count=0
if command -v nvidia-smi > /dev/null 2>&1; then count=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ' || true); fi
{
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
  for ((i = 0; i < count; ++i)); do printf '%s{"id": "%d", "slots": 1}' "$([ $i -gt 0 ] && echo ', ')" "$i"; done
  printf ']}]}\n'
} > "$out"
echo "$out: $count GPU(s)"
