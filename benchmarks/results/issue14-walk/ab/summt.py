import sys, csv, statistics as st, collections
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.OrderedDict()
for r in rows: by.setdefault(r['label'],[]).append(r)
cols=['wall','user','sys','walk','main','workers','workers_user','workers_sys','jit','gc','wwait','idle','quiet']
print(f"{'label':12} {'n':>3} "+' '.join(f"{c:>13}" for c in cols)+"  rssMB")
for k,rs in by.items():
    out=[]
    for c in cols:
        v=sorted(float(r[c]) for r in rs if r.get(c) not in (None,''))
        if not v: out.append(f"{'-':>13}"); continue
        n=len(v); out.append(f"{st.median(v):6.3f}±{(v[(3*n)//4]-v[n//4])/2:5.3f}")
    print(f"{k:12} {len(rs):3d} "+' '.join(f"{x:>13}" for x in out)+f"  {st.median(float(r['rss']) for r in rs)/1024:.0f}")
