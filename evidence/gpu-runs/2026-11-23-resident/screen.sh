#!/bin/bash
# mmasp screen on one GPU: a clean 20 s screen, then 10 s with a test-only rare fault on device 0 (1 in 10^5 cases).
set -u
G=$PWD/gpu-carry
exec > >(tee $OUT/screen.log) 2>&1
$G/mmasp screen --budget 20 --out /tmp/s1; echo "exit $?"
python3 -c "
import json; v=json.load(open('/tmp/s1/gpu0.json'))
print({k: v[k] for k in ('verdict','cases','deviating_cases','pairs_screened','seconds')}, v['device'])"
$G/mmasp screen --budget 10 --inject-fault-on 0:100000 --out /tmp/s2; echo "exit $?"
python3 -c "
import json; v=json.load(open('/tmp/s2/gpu0.json'))
print({k: v[k] for k in ('verdict','cases','deviating_cases','pairs_screened','injected_fault')})
d=v['deviations'][0]; print(d['form'], d['selector'], d['deviating'], d['indices'][:4], d.get('repro'))"
cp /tmp/s1/gpu0.json $OUT/screen-clean-gpu0.json; cp /tmp/s2/gpu0.json $OUT/screen-fault-gpu0.json
f=$(python3 -c "import json; print(json.load(open('/tmp/s2/gpu0.json'))['deviations'][0]['repro'].split()[3])"); $G/mmasp eval "$f" | head -12
