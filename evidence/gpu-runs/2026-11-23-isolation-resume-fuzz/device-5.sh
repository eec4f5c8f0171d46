#!/bin/bash
# mmasp run --devices all on a one-GPU host: the device path (a run process per GPU, digests compared) works on a GPU.
set -u
G=$PWD/gpu-carry
exec > >(tee -a "$OUT/device5.log") 2>&1
$G/mmasp run --devices all --modules $G/modules --no-compile --extras off --filter '*m16n8k16*bf16*' --cases 4096 --out /tmp/d
echo "exit $?"
ls /tmp/d; head -c 600 /tmp/d/devices.json; tail -3 /tmp/d/gpu0.log
