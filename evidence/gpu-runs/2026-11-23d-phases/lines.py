#!/usr/bin/env python3
"""Joins an ncu source-page CSV (--page source --csv --print-source sass) of the lean kernel with the cubin's SASS
(nvdisasm -g -c, which names each instruction's source line) and prints warp instructions executed and stall samples
per source file:line, and per file, per case (cases = the profiled launch's count).
   lines.py source.csv.gz resident.sass.gz CASES [KERNEL [TOP]]   (TOP: lines printed, 45 unless given)"""
import csv, gzip, io, re, sys, collections

src, sass, cases = sys.argv[1], sys.argv[2], float(sys.argv[3])
kernel = sys.argv[4] if len(sys.argv) > 4 else "mmasp_resident_lean"
top = int(sys.argv[5]) if len(sys.argv) > 5 else 45

# SASS: sections per function; '//## File "x", line N' then instructions '/*0a80*/'.
line_of = {}
in_kernel = False
current = None
for raw in gzip.open(sass, "rt", errors="replace"):
    m = re.match(r"\s*\.text\.(\S+):", raw)
    if m:
        in_kernel = m.group(1) == kernel
        current = None
        continue
    if not in_kernel:
        continue
    m = re.search(r'//## File "([^"]+)", line (\d+)', raw)
    if m:
        current = (m.group(1).split("/")[-1], int(m.group(2)))
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/", raw)
    if m and current:
        line_of[int(m.group(1), 16)] = current

text = gzip.open(src, "rt", errors="replace").read()
start = text.find('"#"')
if start < 0:
    start = text.find('"Address"')
rows = list(csv.DictReader(io.StringIO(text[start:])))
cols = rows[0].keys()
inst_col = next(c for c in cols if c.startswith("Instructions Executed") or c == "Warp Instructions Executed" or c.startswith("Warp Instructions"))
stall_col = next((c for c in cols if "Warp Stall Sampling (All" in c), None)
addr_col = next(c for c in cols if c == "Address")
per_line = collections.Counter(); stalls = collections.Counter(); per_file = collections.Counter(); distinct = collections.Counter()
unmapped = 0
def num(x):
    try: return float(x.replace(",", ""))
    except: return 0.0
base = min(int(r[addr_col], 16) for r in rows)   # ncu gives run-time addresses; the kernel starts at the first
for r in rows:
    a = int(r[addr_col], 16) - base
    n = num(r[inst_col]); st = num(r[stall_col]) if stall_col else 0
    key = line_of.get(a)
    if key is None:
        unmapped += n; continue
    per_line[key] += n; stalls[key] += st; per_file[key[0]] += n
    if n > 0: distinct[key[0]] += 1
total = sum(per_line.values()) + unmapped
print(f"warp instructions per case: {total / cases:.0f} (unmapped {unmapped / cases:.0f})")
for f, n in per_file.most_common():
    print(f"  {f:28s} {n / cases:8.0f}   distinct instructions run {distinct[f]}")
print("top lines (instructions per case, stall samples share):")
stall_total = sum(stalls.values()) or 1
for (f, l), n in per_line.most_common(top):
    print(f"  {f}:{l:<5d} {n / cases:7.1f}  {100 * stalls[(f, l)] / stall_total:5.1f}%")
