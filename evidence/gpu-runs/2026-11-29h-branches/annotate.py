#!/usr/bin/env python3
"""Every executed SASS instruction of one resident kernel, with its warp instructions per case, its share of stall
samples and its source file:line, in address order; from an ncu source-page CSV (--page source --csv --print-source
sass) and nvdisasm -g -c of the same cubin (the line map ../2026-11-23d-phases/lines.py uses). Then, per source line,
the control-flow instructions (BRA, BSSY, BSYNC) and constant loads (LDC) per case.
   annotate.py source.csv.gz resident.sass.gz CASES KERNEL"""
import csv, gzip, io, re, sys, collections

src, sass, cases, kernel = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
line_of, in_kernel, current = {}, False, None
for raw in gzip.open(sass, "rt", errors="replace"):
    m = re.match(r"\s*\.text\.(\S+):", raw)
    if m:
        in_kernel, current = m.group(1) == kernel, None
        continue
    if not in_kernel:
        continue
    m = re.search(r'//## File "([^"]+)", line (\d+)', raw)
    if m:
        current = f'{m.group(1).split("/")[-1]}:{m.group(2)}'
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
inst_col = next(c for c in cols if c.startswith("Instructions Executed") or c.startswith("Warp Instructions"))
stall_col = next((c for c in cols if "Warp Stall Sampling (All" in c), None)
def num(x):
    try: return float(x.replace(",", ""))
    except Exception: return 0.0
base = min(int(r["Address"], 16) for r in rows)
stall_total = sum(num(r[stall_col]) for r in rows) if stall_col else 1
per_line = collections.defaultdict(collections.Counter)
for r in rows:
    n = num(r["Instructions Executed" if "Instructions Executed" in r else inst_col]) / cases
    if n <= 0:
        continue
    a = int(r["Address"], 16) - base
    where = line_of.get(a, "?")
    st = 100.0 * num(r[stall_col]) / stall_total if stall_col else 0
    op = next((w for w in r["Source"].split() if not w.startswith("@")), "?").split(".")[0]
    per_line[where][op] += n
    print(f"{a:06x} {n:8.2f} {st:5.2f}% {where:32s} {r['Source'].strip()}")
print("\nper source line: BRA BSSY BSYNC LDC (per case), and all")
order = sorted(per_line.items(), key=lambda kv: -(kv[1]["BRA"] + kv[1]["BSSY"] + kv[1]["BSYNC"]))
for where, c in order[:60]:
    print(f"  {where:32s} BRA {c['BRA']:6.1f} BSSY {c['BSSY']:6.1f} BSYNC {c['BSYNC']:6.1f} LDC {c['LDC']:6.1f}  all {sum(c.values()):7.1f}")
