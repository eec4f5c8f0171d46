# Compares step1.sh tables: run in a folder holding step1-tables.tgz unpacked (tar xzf step1-tables.tgz), prints
# verified/s per form and kernel for both rounds, the mean ratios to s10, and judged/s of round 1.
import sys,glob,collections
rows=collections.OrderedDict()
for f in sorted(glob.glob('table-step1-r*-*.txt')):
    r,k=f[len('table-step1-'):-4].split('-')
    for line in open(f):
        if not line.startswith('mma'): continue
        c=line.split()
        form=c[0].replace('mma.sp::ordered_metadata.sync.aligned.','ord ').replace('mma.sp.sync.aligned.','').replace('row.col.','')
        rows.setdefault(form,{})[(r,k)]=(float(c[1]),float(c[4]))
ks=['s10','s12a','s12b']
print(f"{'form':42s}"+''.join(f"{k+' '+r:>11s}" for r in ['r1','r2'] for k in ks)+"   a/10  b/10  judged 10→a→b (r1)")
for form,d in rows.items():
    v=[d.get((r,k),(0,0))[0] for r in ['r1','r2'] for k in ks]
    s10=(v[0]+v[3])/2; a=(v[1]+v[4])/2; b=(v[2]+v[5])/2
    j=[d.get(('r1',k),(0,0))[1] for k in ks]
    print(f"{form:42s}"+''.join(f"{x:11.3g}" for x in v)+f"  {a/s10:5.3f} {b/s10:5.3f}  "+' '.join(f"{x:.3g}" for x in j))
