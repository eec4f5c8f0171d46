#!/bin/bash
# Issue #28, sixteenth session, twelfth call (an H100): the NVML opener shared by gpu_serial and the clock watch
# (harness/nvml_device.h, NvmlDevice) on a GPU, with nm3 (main at 68b3d82): mmasp screen --budget 15 (its verdict's
# device serial and clocks, which call8's verdict had with the openers before) and mmasp run --budget 20 (run.json
# run.clocks). Run from the repository root with gpu-carry11 carried (nm3/, modules/).
set -u
G=$PWD/gpu-carry11
(cd $G && xz -d -f -k nm3/mmasp.xz && chmod +x nm3/*)
exec > >(tee -a "$OUT/call12.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,serial,clocks.max.sm --format=csv,noheader
W=/tmp/b-nm3 && rm -rf $W && mkdir -p $W && cd $W
timeout 60 $G/nm3/mmasp screen --devices 0 --budget 15 --out s > s.log 2>&1
echo "nm3: mmasp screen --budget 15: exit $?"; tail -2 s.log
python3 -c "import json; d = json.load(open('s/gpu0.json')); print('screen device:', d.get('device')); print('screen clocks:', d.get('clocks'))"
cp s/gpu0.json $OUT/screen12-gpu0.json
timeout 60 $G/nm3/mmasp run --backend gpu --modules $G/modules --budget 20 --seed 1 --findings $G/../findings/findings.json --out r > r.log 2>&1
echo "nm3: mmasp run --budget 20: exit $?"
grep -E "SM clock|GPU-resident path:" r/summary.md | head -3
python3 -c "import json; print('run.clocks:', json.load(open('r/run.json'))['run'].get('clocks'))"
cp r/summary.md $OUT/budget20-nm3-summary12.md
