#!/usr/bin/env python3
"""Ratio range and rate range per group of forms, from a compare.py table of two kernels over two passes
(form, k1 pass 1, k2 pass 1, k1 pass 2, k2 pass 2, k2/k1).   groups.py TABLE"""
import re, sys, collections
groups = collections.OrderedDict()
for line in open(sys.argv[1]):
    c = line.split()
    if not c or not (c[0].startswith('m16') or c[0] == 'ord'):
        continue
    form = c[1] if c[0] == 'ord' else c[0]
    nums = c[2:7] if c[0] == 'ord' else c[1:6]
    k1a, k2a, k1b, k2b, ratio = (float(x.rstrip(';,')) for x in nums)
    shape, rest = form.split('.', 1)
    kind = 'fp8' if re.search(r'e[45]m[23]', rest) else 'bf16' if 'bf16' in rest else 'tf32' if 'tf32' in rest else \
        ('f16->f16' if rest.startswith('f16') else 'f16->f32') if 'f16' in rest else ('4-bit' if '4' in rest.split('.')[-2] else '8-bit')
    g = groups.setdefault(f'{shape} {kind}', [[], []])
    g[0].append(ratio); g[1] += [k2a, k2b]
print(f"{'group':28s} {'forms':>5s} {'ratio':>15s} {'new verified cases/s':>24s}")
for name, (ratios, rates) in groups.items():
    print(f"{name:28s} {len(ratios):5d} {min(ratios):7.3f}-{max(ratios):.3f} {min(rates):11.3g} - {max(rates):.3g}")
