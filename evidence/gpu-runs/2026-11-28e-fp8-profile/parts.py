#!/usr/bin/env python3
"""Sums lines.py's per-line counts (instructions per case) by part of an fp8 case, for this folder's two profiles and the next session's:
   parts.py lines1.txt old    (ngi's source, 19317d5)
   parts.py lines4.txt new    (nf's source, 0c327f6: its model_arithmetic.h and resident_abi.h lines moved)
   parts.py ../2026-11-28f-f32-words/lines5.txt f32    (b566531's source, the twenty-first session's f32 words)
Ranges are the functions' lines in that source; portable_case.h and splitmix.h are drawing, resident_kernel.cuh and
resident_kernels_sm_90a.cu the kernel's own lines and the instruction. Lines lines.py did not list (it prints the top
200) are not counted, so the parts add up to a little less than the total."""
import re, sys
M, R = 'model_arithmetic.h', 'resident_abi.h'
ranges = {
    'old': {'products': [(M, 915, 1002), (M, 1031, 1044), (M, 1055, 1107), (M, 1170, 1200), (R, 830, 900)],
            'finishing': [(M, 55, 70), (M, 99, 126), (M, 231, 600), (M, 1003, 1030), (M, 1108, 1160)],
            'words': [(R, 300, 312), (R, 690, 710), (R, 740, 802)],
            'packing': [(R, 268, 282), (R, 930, 1026)]},
    'new': {'products': [(M, 917, 1004), (M, 1033, 1046), (M, 1057, 1104), (M, 1205, 1240), (R, 840, 915)],
            'finishing': [(M, 55, 72), (M, 101, 128), (M, 233, 602), (M, 1005, 1032), (M, 1105, 1200)],
            'words': [(R, 305, 316), (R, 695, 720), (R, 750, 815)],
            'packing': [(R, 270, 285), (R, 955, 1040)]},
    'f32': {'products': [(M, 985, 1101), (M, 1131, 1150), (M, 1151, 1215), (M, 1331, 1345), (R, 894, 961)],
            'finishing': [(M, 55, 72), (M, 101, 128), (M, 233, 602), (M, 1102, 1130), (M, 1216, 1306)],
            'words': [(R, 305, 316), (R, 700, 720), (R, 790, 861)],
            'packing': [(R, 270, 285), (R, 999, 1059)]},
}[sys.argv[2]]
rows, total = [], None
for line in open(sys.argv[1]):
    m = re.match(r'warp instructions per case: (\d+)', line)
    if m: total = int(m.group(1))
    m = re.match(r'\s+(\S+):(\d+)\s+([\d.]+)\s+[\d.]+%', line)
    if m: rows.append((m.group(1), int(m.group(2)), float(m.group(3))))
def part(spans): return sum(v for f, l, v in rows if any(f == sf and lo <= l <= hi for sf, lo, hi in spans))
print(f'warp instructions per case: {total}')
for name, spans in ranges.items(): print(f'  {name:10s} {part(spans):7.0f}')
print(f"  {'drawing':10s} {sum(v for f, l, v in rows if f in ('portable_case.h', 'splitmix.h')):7.0f}")
print(f"  {'kernel':10s} {sum(v for f, l, v in rows if f in ('resident_kernel.cuh', 'resident_kernels_sm_90a.cu')):7.0f}")
