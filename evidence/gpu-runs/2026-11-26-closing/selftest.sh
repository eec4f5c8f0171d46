#!/bin/bash
# mmasp selftest --faults on one H100 at f530a65 (the model refactored for block scale, 43 faults of which 40 reach sm_90).
set -u
G=$PWD/gpu-carry3
(cd $G && xz -d -f mmasp.xz && chmod +x mmasp)
export MMASP_BINARY=$G/mmasp MMASP_MODULES=$G/modules
exec > >(tee -a "$OUT/selftest.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s)
timeout 300 $G/mmasp selftest --faults --cases 300 --threads 16 --json $OUT/selftest.json > /tmp/selftest.txt 2>&1
echo "exit $? in $(( $(date +%s) - s )) s"
grep -E "faults:|missed|MISSED|unseeable" /tmp/selftest.txt | tail -5
cp /tmp/selftest.txt $OUT/selftest.txt
