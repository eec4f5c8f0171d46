#!/usr/bin/env python3
"""Shared-memory wavefronts of one resident kernel, per SASS instruction and per source line, from an ncu source-page
CSV (--page source --csv --print-source sass, with the SourceCounters section) and nvdisasm -g -c of the same cubin:
for each instruction with shared wavefronts, its warp instructions, wavefronts and ideal wavefronts per case; then
the same summed per source line, the most excessive first.
   wavefronts.py source.csv.gz resident.sass.gz CASES KERNEL"""
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
cols = list(rows[0].keys())
print("columns:", "; ".join(c for c in cols if "Shared" in c or "Wavefront" in c or "Executed" in c))
inst_col = next(c for c in cols if c.startswith("Instructions Executed") or c.startswith("Warp Instructions"))
wf_col = next((c for c in cols if re.match(r"L1 Wavefronts Shared$", c) or c.strip() == "L1 Wavefronts Shared"), None)
ideal_col = next((c for c in cols if "Wavefronts Shared Ideal" in c), None)
excess_col = next((c for c in cols if "Wavefronts Shared Excessive" in c), None)
print("using:", inst_col, "|", wf_col, "|", ideal_col, "|", excess_col)
def num(x):
    try: return float(x.replace(",", ""))
    except Exception: return 0.0
base = min(int(r["Address"], 16) for r in rows)
per_line = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
totals = [0.0, 0.0, 0.0]
for r in rows:
    n = num(r[inst_col]) / cases
    wf = num(r[wf_col]) / cases if wf_col else 0.0
    ideal = num(r[ideal_col]) / cases if ideal_col else 0.0
    excess = num(r[excess_col]) / cases if excess_col else wf - ideal
    if wf <= 0 and excess <= 0:
        continue
    a = int(r["Address"], 16) - base
    where = line_of.get(a, "?")
    acc = per_line[where]
    acc[0] += n; acc[1] += wf; acc[2] += ideal; acc[3] += excess
    totals[0] += wf; totals[1] += ideal; totals[2] += excess
    print(f"{a:06x} {n:7.2f} wf {wf:7.2f} ideal {ideal:7.2f} excess {excess:7.2f} {where:32s} {r['Source'].strip()}")
print(f"\ntotal a case: wavefronts {totals[0]:.1f}, ideal {totals[1]:.1f}, excessive {totals[2]:.1f}")
print("per source line, the most excessive first: instructions, wavefronts, ideal, excessive (a case)")
for where, (n, wf, ideal, ex) in sorted(per_line.items(), key=lambda kv: -kv[1][3]):
    print(f"  {where:34s} {n:8.2f} {wf:8.2f} {ideal:8.2f} {ex:8.2f}")
