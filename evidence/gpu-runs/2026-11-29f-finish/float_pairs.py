# Random-suite cases per float pair run on the GPU in two mmasp run --budget 60 results of one device call:
#   python3 float_pairs.py CALL BEFORE AFTER     e.g. float_pairs.py 2 hd nw  (reads budget60-{BEFORE,AFTER}-runCALL.json.gz)
import json, gzip, sys
call, before, after = sys.argv[1], sys.argv[2], sys.argv[3]
def load(k):
    d = json.load(gzip.open(f'budget60-{k}-run{call}.json.gz'))
    return {r['id']: r for r in d['results'] if r['suite'] == 'random' and r['family'] in ('f16', 'bf16', 'tf32', 'fp8')}
hd, nw = load(before), load(after)
print(f"# mmasp run --backend gpu --budget 60 --seed 1, random-suite cases per float pair run on the GPU (f16, bf16, tf32,")
print(f"# fp8), {before} then {after} in one device session (call{call}.sh; README.md names the builds). Short slices scatter, so")
print("# a pair's ratio is not its kernel's (resident_benchmark's tables are); per kernel second is the resident cases over")
print("# the resident seconds.")
for i in sorted(nw):
    a, b = hd[i], nw[i]
    ka = a['resident']['checked'] / a['resident']['seconds']; kb = b['resident']['checked'] / b['resident']['seconds']
    print(f"{i:90s} {a['resident']['checked']:11.4g} -> {b['resident']['checked']:11.4g}  x{b['resident']['checked'] / a['resident']['checked']:.3f}"
          f"   per kernel second {ka:9.3g} -> {kb:9.3g}  x{kb / ka:.3f}")
fewest = lambda d: min((r['resident']['checked'], i) for i, r in d.items())
print(f"# fewest float pair on the GPU: {before} {fewest(hd)[0]:.4g} ({fewest(hd)[1]}), {after} {fewest(nw)[0]:.4g} ({fewest(nw)[1]})")
