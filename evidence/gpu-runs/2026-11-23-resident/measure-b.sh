#!/bin/bash
# Issue #13 measurements, part B: mmasp run --budget 60 on the host path alone (--resident off) and with the resident
# path (auto), one after the other on the same GPU.
set -u
G=$PWD/gpu-carry
M=$G/mmasp
exec > >(tee $OUT/measure-b.log) 2>&1
for mode in ${MODES:-off auto}; do
  echo "== mmasp run --budget 60 --resident $mode"
  start=$(date +%s.%N)
  $M run --modules $G/modules --budget 60 --resident $mode --out /tmp/run-$mode > /tmp/run-$mode.log 2>&1
  echo "exit $? after $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
  grep -v '^\[' /tmp/run-$mode.log | tail -6
  cp /tmp/run-$mode/run.json $OUT/run-$mode.json
  python3 - /tmp/run-$mode/run.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
random = [x for x in r['results'] if x['suite'] == 'random']
cases = sum(x['cases'] for x in random)
gpu = sum(x.get('resident', {}).get('checked', 0) for x in random)
host = cases - gpu
ref = sum(x.get('model', {}).get('reference_judged', 0) for x in random)
secs = sum(x['seconds'] for x in random)
bad = [(x['id'], x['status']) for x in r['results'] if x['status'] not in ('Pass', 'QualityWarning', 'NotSupported')]
print(f"random suites: {len(random)} results, {cases} cases in {secs:.1f} s of suite time ({cases/secs:.4g} cases/s); "
      f"GPU-resident {gpu}, host path {host}, of which the exact reference judged {ref}; run {r['run']['seconds']:.1f} s")
sums_ok = all(x['resident']['generated'] == x['resident']['checked'] and
              x['resident']['recorded'] + x['resident']['overflowed'] == x['resident']['deviating'] for x in random if 'resident' in x)
print("resident counts add up:", sums_ok, "; non-passing results:", bad[:10])
PY
done
