# Compares the tables of one step (its *-tables.tgz unpacked into FOLDER): files PREFIX-PASS-KERNEL.txt, each
# resident_benchmark's rows for one pass and kernel. Prints, per form, verified/s for every pass and kernel, each
# kernel's ratio to the first (the mean over the passes both ran), and drawn/s, judged/s and the bare mma.sp rate of
# the first pass, kernel by kernel.
#   python3 compare.py FOLDER PREFIX KERNEL...   e.g. compare.py /tmp/t2 table2 s12 s14 s14b
import collections, glob, os, sys
folder, prefix, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
passes = sorted({os.path.basename(f)[len(prefix) + 1:].rsplit('-', 1)[0] for f in glob.glob(f'{folder}/{prefix}-*-*.txt')}, key=lambda p: (p != 'all', p))   # 'all' (every form) first
rows = collections.OrderedDict()
for p in passes:
    for k in kernels:
        name = f'{folder}/{prefix}-{p}-{k}.txt'
        if not os.path.exists(name): continue
        for line in open(name):
            c = line.split()
            if not c or not c[0].startswith('mma'): continue
            form = c[0].replace('mma.sp::ordered_metadata.sync.aligned.', 'ord ').replace('mma.sp.sync.aligned.', '').replace('row.col.', '')
            rows.setdefault(form, {})[(p, k)] = [float(x) for x in c[1:6]]
columns = [(p, k) for p in passes for k in kernels]
print(f"{'form':40s}" + ''.join(f"{k + ' ' + p:>13s}" for p, k in columns) + ''.join(f"{k + '/' + kernels[0]:>10s}" for k in kernels[1:]) +
      f"   drawn/s; judged/s; bare mma.sp/s ({passes[0]}: " + ', '.join(kernels) + ")")
for form, d in rows.items():
    line = f"{form:40s}" + ''.join(f"{d[c][0]:13.3g}" if c in d else f"{'':13s}" for c in columns)
    for k in kernels[1:]:
        ratios = [d[(p, k)][0] / d[(p, kernels[0])][0] for p in passes if (p, k) in d and (p, kernels[0]) in d]
        line += f"{sum(ratios) / len(ratios):10.3f}" if ratios else f"{'':10s}"   # a form only one kernel ran
    first = [d[(passes[0], k)] for k in kernels if (passes[0], k) in d]
    line += '   ' + '; '.join(', '.join(f"{x[i]:.3g}" for x in first) for i in (1, 3, 4))
    print(line)
