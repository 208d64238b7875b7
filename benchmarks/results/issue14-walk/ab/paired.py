import sys, csv, collections, statistics as st
# usage: paired.py CSV A B [col,...]: per round, B - A (runs adjacent in time)
rows=list(csv.DictReader(open(sys.argv[1]))); A=sys.argv[2]; B=sys.argv[3]
cols=sys.argv[4].split(',') if len(sys.argv)>4 else ['wall','user','sys','walk','workers']
byr=collections.defaultdict(dict)
for r in rows: byr[r['round']][r['label']]=r
for c in cols:
    d=[float(v[B][c])-float(v[A][c]) for v in byr.values() if A in v and B in v and v[A].get(c) and v[B].get(c)]
    if not d: continue
    d.sort(); n=len(d); neg=sum(1 for x in d if x<0)
    print(f"{c:8} {B}-{A}: median {st.median(d):+.3f} s  [q1 {d[n//4]:+.3f}, q3 {d[(3*n)//4]:+.3f}]  {neg}/{n} rounds lower")
