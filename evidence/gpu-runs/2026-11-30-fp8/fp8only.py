#!/usr/bin/env python3
"""The resident kernels' generated source with every kernel's body but one's emptied (by default the fp8 kernel's), so
that nvcc builds a variant of that kernel in about 30 s (the entries stay, so that a program that looks every kernel up
still loads the image; only the kept kernel runs anything). KERNEL may name several, separated by commas.
   fp8only.py build/generated/resident_kernels_sm_90a.cu OUT.cu [KERNEL[,KERNEL...]]"""
import re, sys

source = open(sys.argv[1]).read()
keep = (sys.argv[3] if len(sys.argv) > 3 else 'mmasp_resident_lean_fp8').split(',')
entry = re.compile(r'(\n(mmasp_resident\w*)\(const __grid_constant__ [^\n]*\{\n)  mmasp::resident::resident_cases<[^\n]*\n\}')
kept = [0]
def body(m):
    if m.group(2) in keep:
        kept[0] += 1
        return m.group(0)
    return m.group(1) + '}'
out = entry.sub(body, source)
if kept[0] != len(keep):
    sys.exit('no entry for some of ' + ','.join(keep))
open(sys.argv[2], 'w').write(out)
