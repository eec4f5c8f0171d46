# Compares step3.sh's tables (unpacked into the folder given, default .): verified/s per form with s12 and s15 in both
# rounds, the ratio s15/s12 (mean of the rounds), and drawn/s, drawn+run/s and judged/s of round 1, s12 -> s15.
import collections, sys
folder = sys.argv[1] if len(sys.argv) > 1 else '.'
rows = collections.OrderedDict()
for r in ['r1', 'r2']:
    for k in ['s12', 's15']:
        for line in open(f'{folder}/table3-{r}-{k}.txt'):
            c = line.split()
            form = c[0].replace('mma.sp::ordered_metadata.sync.aligned.', 'ord ').replace('mma.sp.sync.aligned.', '').replace('row.col.', '')
            rows.setdefault(form, {})[(r, k)] = [float(x) for x in c[1:5]]
print(f"{'form':40s} {'s12 r1':>9s} {'s15 r1':>9s} {'s12 r2':>9s} {'s15 r2':>9s} s15/s12   drawn/s, drawn+run/s, judged/s (r1) s12 -> s15")
for form, d in rows.items():
    v = [d[(r, k)][0] for r in ['r1', 'r2'] for k in ['s12', 's15']]
    a, b = d[('r1', 's12')], d[('r1', 's15')]
    print(f"{form:40s} " + ' '.join(f"{x:9.3g}" for x in v) + f" {(v[1] / v[0] + v[3] / v[2]) / 2:7.3f}   " +
          ', '.join(f"{a[i]:.3g} -> {b[i]:.3g}" for i in (1, 2, 3)))
