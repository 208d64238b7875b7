#!/bin/bash
# usage: abw.sh OUT PAIRS THREADS... ; walkSeconds via --json, alternating old/new
out=$1; pairs=$2; shift 2
T=/var/tmp/m1/relabel-bench-13481580275418107294/tree; FC=/etc/selinux/default/contexts/files/file_contexts
: > $out
for t in "$@"; do for i in $(seq $pairs); do for v in old new; do
  if [ $v = old ]; then B=/tmp/wt-base/bin/relabel; else B=/work/main/bin/relabel; fi
  r=$( { /usr/bin/time -f '%e %U %S %M' $B setfiles --json -T $t -F -r $T $FC $T > /tmp/abw.json; } 2>&1 | tail -1 )
  w=$(python3 -c "import json;print(json.load(open('/tmp/abw.json'))['walkSeconds'])")
  echo "$t $v $r $w" >> $out
done; done; done
python3 - "$out" <<'P'
import collections,statistics as st,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    t,v,e,u,s,m,w=l.split(); d[(t,v)].append((float(e),float(u),float(s),int(m),float(w)))
for k in sorted(d):
    xs=d[k]; print(k, 'wall %.3f user %.3f sys %.3f rss %d walk %.3f' % tuple(st.median([x[i] for x in xs]) for i in range(5)))
for v in ('old','new'):
    w1=st.median(x[4] for x in d[('1',v)]); w2=st.median(x[4] for x in d[('2',v)])
    e1=st.median(x[0] for x in d[('1',v)]); e2=st.median(x[0] for x in d[('2',v)])
    print(v,'walk T1/T2 %.2f  wall T1/T2 %.2f'%(w1/w2,e1/e2))
P
