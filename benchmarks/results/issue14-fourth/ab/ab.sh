#!/bin/bash
# usage: ab.sh OUT PAIRS THREADS... ; alternates /tmp/wt-base (old) and /work/main (new)
out=$1; pairs=$2; shift 2
T=/var/tmp/m1/relabel-bench-13481580275418107294/tree; FC=/etc/selinux/default/contexts/files/file_contexts
: > $out
for t in "$@"; do for i in $(seq $pairs); do for v in old new; do
  if [ $v = old ]; then B=/tmp/wt-base/bin/relabel; else B=/work/main/bin/relabel; fi
  r=$( { /usr/bin/time -f '%e %U %S %M' $B setfiles -T $t -r $T $FC $T; } 2>&1 )
  echo "$t $v $r" >> $out
done; done; done
python3 - "$out" <<'P'
import collections,statistics as st,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    t,v,e,u,s,m=l.split(); d[(t,v)].append((float(e),float(u),float(s),int(m)))
for k in sorted(d):
    xs=d[k]; print(k, 'wall %.3f user %.3f sys %.3f rss %d' % tuple(st.median([x[i] for x in xs]) for i in range(4)), 'min wall %.3f'%min(x[0] for x in xs))
ts=sorted(set(k[0] for k in d))
for t in ts:
    o=d[(t,'old')]; n=d[(t,'new')]
    diffs=[b[0]-a[0] for a,b in zip(o,n)]; ud=[b[1]-a[1] for a,b in zip(o,n)]
    print('T',t,'paired wall diff median %.3f (new lower in %d/%d), user diff %.3f'%(st.median(diffs),sum(x<0 for x in diffs),len(diffs),st.median(ud)))
P
