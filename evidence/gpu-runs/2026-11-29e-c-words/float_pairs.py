import json,gzip
def load(k):
    d=json.load(gzip.open(f'budget60-{k}-run2.json.gz'))
    return {r['id']:r for r in d['results'] if r['suite']=='random' and r['family'] in ('f16','bf16','tf32','fp8')}
hd,nw=load('hd'),load('nw')
print("# mmasp run --backend gpu --budget 60 --seed 1, random-suite cases per float pair run on the GPU (f16, bf16, tf32, fp8),")
print("# HEAD's mmasp before this round (hd, 6768892's build) then this round's (nw), one H200, one device session (call2.sh).")
print("# Short slices scatter, so a pair's ratio is not its kernel's (resident_benchmark's tables are); per kernel second is")
print("# the resident cases over the resident seconds. The sm_100a and sm_120a forms (f8f6f4 and block scale) are not executed here (no such device).")
apart=[]
for i in sorted(nw):
    a,b=hd.get(i),nw[i]
    if not a or 'resident' not in a or 'resident' not in b: apart.append(f"{i}: {b['status']}, {b['cases']} cases"); continue
    ka=a['resident']['checked']/a['resident']['seconds']; kb=b['resident']['checked']/b['resident']['seconds']
    print(f"{i:90s} {a['resident']['checked']:11.4g} -> {b['resident']['checked']:11.4g}  x{b['resident']['checked']/a['resident']['checked']:.3f}   per kernel second {ka:9.3g} -> {kb:9.3g}  x{kb/ka:.3f}")
f=lambda d: min((r['resident']['checked'],i) for i,r in d.items() if 'resident' in r)
print(f"# fewest float pair on the GPU: hd {f(hd)[0]:.4g} ({f(hd)[1]}), nw {f(nw)[0]:.4g} ({f(nw)[1]})")
for x in apart: print("# not on the GPU:", x)
