# Compares step1.sh's tables (run in this folder): per form, verified/s with s12 and s13 in both passes (every form
# once; the float and 4-bit k128 forms again in the other order), the ratio s13/s12 (mean of the passes where both
# ran), and drawn/s, drawn+run/s and judged/s of the first pass, s12 -> s13.
import collections, glob
rows = collections.OrderedDict()
for name in ['table-all-s12.txt', 'table-all-s13.txt', 'table-again-s12.txt', 'table-again-s13.txt']:
    kind, kernel = name[len('table-'):-4].split('-')
    for line in open(name):
        c = line.split()
        if not c or not c[0].startswith('mma'): continue
        form = c[0].replace('mma.sp::ordered_metadata.sync.aligned.', 'ord ').replace('mma.sp.sync.aligned.', '').replace('row.col.', '')
        rows.setdefault(form, {})[(kind, kernel)] = [float(x) for x in c[1:5]]
print(f"{'form':40s} {'s12':>9s} {'s13':>9s} {'s12 again':>9s} {'s13 again':>9s} {'s13/s12':>7s}   drawn/s, drawn+run/s, judged/s s12 -> s13")
for form, d in rows.items():
    v = [d.get(key, [0])[0] for key in [('all', 's12'), ('all', 's13'), ('again', 's12'), ('again', 's13')]]
    ratios = [v[1] / v[0]] + ([v[3] / v[2]] if v[2] and v[3] else [])
    a, b = d[('all', 's12')], d[('all', 's13')]
    print(f"{form:40s} " + ' '.join(f"{x:9.3g}" if x else f"{'':9s}" for x in v) + f" {sum(ratios) / len(ratios):7.3f}   " +
          ', '.join(f"{a[i]:.3g} -> {b[i]:.3g}" for i in (1, 2, 3)))
