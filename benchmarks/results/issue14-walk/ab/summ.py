import sys, csv, statistics as st, collections
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.OrderedDict()
for r in rows: by.setdefault(r['label'],[]).append(r)
def q(v):
    v=sorted(v); n=len(v)
    return v[n//4], st.median(v), v[(3*n)//4]
print(f"{'label':14} {'n':>3} {'wall med [q1-q3]':>24} {'user':>20} {'sys':>20} {'u+s':>8} {'walk':>20} rssMB")
for k,rs in by.items():
    f=lambda c:[float(r[c]) for r in rs if r[c]]
    out=[]
    for c in ('wall','user','sys'):
        a,b,cc=q(f(c)); out.append(f"{b:6.3f} [{a:.3f}-{cc:.3f}]")
    us=st.median([float(r['user'])+float(r['sys']) for r in rs])
    w=f('walk'); ws=f"{st.median(w):6.3f} [{q(w)[0]:.3f}-{q(w)[2]:.3f}]" if w else '-'
    print(f"{k:14} {len(rs):3d} {out[0]:>24} {out[1]:>20} {out[2]:>20} {us:8.3f} {ws:>20} {st.median(f('rss'))/1024:.0f}")
