#!/usr/bin/env python3
"""Per-opcode warp instructions executed per case, and stall samples per reason, from an ncu source-page CSV
(--page source --csv --print-source sass) of one resident kernel launch.
   opcodes.py source.csv.gz CASES [TOP]"""
import csv, gzip, io, sys, collections

src, cases = sys.argv[1], float(sys.argv[2])
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
text = gzip.open(src, "rt", errors="replace").read()
start = text.find('"#"')
if start < 0:
    start = text.find('"Address"')
rows = list(csv.DictReader(io.StringIO(text[start:])))
cols = list(rows[0].keys())
print("columns:", "; ".join(cols))
inst_col = next(c for c in cols if c.startswith("Instructions Executed") or c.startswith("Warp Instructions"))
src_col = next(c for c in cols if c == "Source")
def num(x):
    try: return float(x.replace(",", ""))
    except Exception: return 0.0
per_op = collections.Counter()
for r in rows:
    words = r[src_col].split()
    op = next((w for w in words if not w.startswith("@")), "?") if words else "?"
    per_op[op.split(".")[0]] += num(r[inst_col])
total = sum(per_op.values())
print(f"warp instructions per case: {total / cases:.0f}")
for op, n in per_op.most_common(top):
    print(f"  {op:10s} {n / cases:8.1f}")
stall_cols = [c for c in cols if "stall" in c.lower() or "Stall" in c]
sums = {c: sum(num(r[c]) for r in rows) for c in stall_cols}
all_col = next((c for c in stall_cols if "All" in c), None)
whole = sums.get(all_col, 0) or 1
print("stall sample columns (share of all samples):")
for c, s in sorted(sums.items(), key=lambda x: -x[1]):
    print(f"  {c:60s} {s:14.0f} {100 * s / whole:6.1f}%")
