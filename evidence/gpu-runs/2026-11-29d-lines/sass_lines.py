#!/usr/bin/env python3
"""Joins an ncu source-page CSV (--page source --csv --print-source sass) with nvdisasm -g -c's SASS of one kernel and
prints every executed instruction with its warp instructions a case and its source file:line, so that a line's count
(lines.py) can be read instruction by instruction.
   sass_lines.py source.csv.gz resident.sass.gz CASES KERNEL > kernel.sass.txt
   (then e.g. grep 'resident_abi.h:1169' kernel.sass.txt)"""
import csv, gzip, io, re, sys
src, sass, cases, kernel = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
line_of, text_of = {}, {}
in_kernel, current = False, None
for raw in gzip.open(sass, "rt", errors="replace"):
    m = re.match(r"\s*\.text\.(\S+):", raw)
    if m:
        in_kernel, current = m.group(1) == kernel, None
        continue
    if not in_kernel:
        continue
    m = re.search(r'//## File "([^"]+)", line (\d+)', raw)
    if m:
        current = (m.group(1).split("/")[-1], int(m.group(2)))
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?);", raw)
    if m:
        a = int(m.group(1), 16)
        line_of[a], text_of[a] = current, m.group(2).strip()
text = gzip.open(src, "rt", errors="replace").read()
start = text.find('"#"')
if start < 0:
    start = text.find('"Address"')
rows = list(csv.DictReader(io.StringIO(text[start:])))
inst_col = next(c for c in rows[0].keys() if c.startswith("Instructions Executed"))
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
base = min(int(r["Address"], 16) for r in rows)   # ncu gives run-time addresses; the kernel starts at the first
for r in rows:
    a = int(r["Address"], 16) - base
    n = num(r[inst_col]) / cases
    if n > 0:
        loc = line_of.get(a)
        print(f"{a:06x} {n:7.2f} {loc[0] + ':' + str(loc[1]) if loc else '?':28s} {text_of.get(a, r.get('Source', ''))}")
