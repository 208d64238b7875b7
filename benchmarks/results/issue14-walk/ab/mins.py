import sys, csv, collections, statistics as st
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.OrderedDict()
for r in rows: by.setdefault(r['label'],[]).append(r)
cols=sys.argv[2].split(',') if len(sys.argv)>2 else ['wall','user','sys','walk','workers']
print(f"{'label':10} "+' '.join(f"{c+' min/q1/med':>24}" for c in cols))
for k,rs in by.items():
    out=[]
    for c in cols:
        v=sorted(float(r[c]) for r in rs if r.get(c) not in (None,''))
        out.append(f"{v[0]:.3f}/{v[len(v)//4]:.3f}/{st.median(v):.3f}")
    print(f"{k:10} "+' '.join(f"{x:>24}" for x in out))
