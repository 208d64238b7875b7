import collections,sys
tot=0; c=collections.Counter()
for line in open(sys.argv[1]):
    st,n=line.rsplit(' ',1); n=int(n); tot+=n
    fr=st.split(';')
    leaf=fr[-1]
    if leaf in ('syscall','statx','getdents64','__close','__open64','openat','__openat64','close') or leaf.endswith('_[k]'): k='kernel'
    elif any('jna' in f or f.startswith('jni_') or f.startswith('ffi') for f in fr[-4:]): k='jna'
    elif any(f.startswith('dev/relabel/match') for f in fr): k='match'
    elif any(f.startswith('dev/relabel/nativeio') for f in fr): k='nativeio-java'
    elif any(f.startswith('dev/relabel/walk') for f in fr): k='walk-java'
    elif any('Compile' in f or 'C1' in f for f in fr[:3]): k='jit'
    elif any('GC' in f or 'VMThread' in f for f in fr[:3]): k='gc/vm'
    elif any(f.startswith('dev/relabel') for f in fr): k='relabel-other(start)'
    else: k='other:'+fr[0][:40]
    c[k]+=n
for k,n in c.most_common(25): print('%5.1f%% %s'%(100*n/tot,k))
