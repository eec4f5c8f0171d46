# Compares step2.sh's tables (step2-tables.tgz unpacked into the folder given, default .): per form, verified/s with s12, s14 and s14b,
# first pass (every form) and second pass (float, 4-bit k128 and 8-bit k32 forms, the other order), the ratios
# s14/s12 and s14b/s12 (mean of the passes), and drawn/s of the first pass.
import collections, sys
folder = sys.argv[1] if len(sys.argv) > 1 else '.'
ks = ['s12', 's14', 's14b']
rows = collections.OrderedDict()
for kind in ['all', 'again']:
    for k in ks:
        for line in open(f'{folder}/table2-{kind}-{k}.txt'):
            c = line.split()
            form = c[0].replace('mma.sp::ordered_metadata.sync.aligned.', 'ord ').replace('mma.sp.sync.aligned.', '').replace('row.col.', '')
            rows.setdefault(form, {})[(kind, k)] = [float(x) for x in c[1:5]]
print(f"{'form':40s}" + ''.join(f"{k:>9s}" for k in ks) + ''.join(f"{k + ' 2':>9s}" for k in ks) + "  s14/12 s14b/12   drawn/s s12, s14, s14b")
def mean(x): return sum(x) / len(x)
for form, d in rows.items():
    v = [d.get((kind, k), [0])[0] for kind in ['all', 'again'] for k in ks]
    r14 = mean([v[1] / v[0]] + ([v[4] / v[3]] if v[3] else []))
    r14b = mean([v[2] / v[0]] + ([v[5] / v[3]] if v[3] else []))
    print(f"{form:40s}" + ''.join(f"{x:9.3g}" if x else f"{'':9s}" for x in v) + f"  {r14:6.3f} {r14b:6.3f}   " +
          ', '.join(f"{d[('all', k)][1]:.3g}" for k in ks))
