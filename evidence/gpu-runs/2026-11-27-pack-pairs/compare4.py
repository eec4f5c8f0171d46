# Compares step4.sh's tables (step4-tables.tgz unpacked into the folder given, default .): per form, verified/s with
# s12 and s16, first pass (every form) and second pass (float, 4-bit k128 and 8-bit k32 forms, the other order), the
# ratio s16/s12 (mean of the passes), and drawn/s, judged/s and the bare mma.sp rate of the first pass, s12 -> s16.
import collections, sys
folder = sys.argv[1] if len(sys.argv) > 1 else '.'
ks = ['s12', 's16']
rows = collections.OrderedDict()
for kind in ['all', 'again']:
    for k in ks:
        for line in open(f'{folder}/table4-{kind}-{k}.txt'):
            c = line.split()
            form = c[0].replace('mma.sp::ordered_metadata.sync.aligned.', 'ord ').replace('mma.sp.sync.aligned.', '').replace('row.col.', '')
            rows.setdefault(form, {})[(kind, k)] = [float(x) for x in c[1:6]]
print(f"{'form':40s}" + ''.join(f"{k:>9s}" for k in ks) + ''.join(f"{k + ' 2':>9s}" for k in ks) +
      "  s16/s12   drawn/s, judged/s, bare mma.sp/s (first pass) s12 -> s16")
for form, d in rows.items():
    v = [d.get((kind, k), [0])[0] for kind in ['all', 'again'] for k in ks]
    ratios = [v[1] / v[0]] + ([v[3] / v[2]] if v[2] and v[3] else [])
    a, b = d[('all', 's12')], d[('all', 's16')]
    print(f"{form:40s}" + ''.join(f"{x:9.3g}" if x else f"{'':9s}" for x in v) + f"  {sum(ratios) / len(ratios):7.3f}   " +
          ', '.join(f"{a[i]:.3g} -> {b[i]:.3g}" for i in (1, 3, 4)))
