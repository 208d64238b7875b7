# Categorises the ForkJoin worker samples of an async-profiler collapsed profile (event=cpu,
# interval=499us, collapsed, threads) of one relabel run: libc+kernel per system call wrapper, JNA
# dispatch (under Libc$Direct, above libc), Java by package of the deepest relabel frame.
# Usage: python3 categorise.py PROFILE.collapsed
import collections,sys
lines=[l.rstrip('\n').rsplit(' ',1) for l in open(sys.argv[1])]
w=[(st.split(';'),int(n)) for st,n in lines if 'ForkJoinPool-1-worker' in st]
tot=sum(n for _,n in w)
LIBC={'statx','syscall','getdents64','__openat','__close','__GI___close','__libc_openat64'}
c=collections.Counter(); detail=collections.Counter()
for fr,n in w:
    # find libc syscall wrapper frame
    idx=[i for i,f in enumerate(fr) if f in LIBC]
    if idx:
        c['libc+kernel (%s)'%fr[idx[0]]]+=n; continue
    jna=[i for i,f in enumerate(fr) if f.startswith('dev/relabel/nativeio/Libc$Direct')]
    if jna:
        c['JNA dispatch']+=n; detail[fr[-1]]+=n; continue
    rel=[f for f in fr if f.startswith('dev/relabel/')]
    last=rel[-1] if rel else fr[-1]
    pkg='/'.join(last.split('/')[:3])
    if fr[-1].endswith('_[k]'): c['kernel (other: faults etc)']+=n; continue
    c['java '+pkg]+=n
    detail['  '+last]+=n
for k,n in c.most_common(): print('%5d %5.1f%% %s'%(n,100*n/tot,k))
print('--- top exclusive by deepest relabel frame / jna leaf')
for k,n in detail.most_common(25): print('%5d %5.1f%% %s'%(n,100*n/tot,k))
