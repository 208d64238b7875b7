import sys, collections
# classify samples of an async-profiler collapsed file into phases
f=sys.argv[1]
cats=collections.Counter(); total=0
def classify(fr):
    leaf=fr[-1]
    s=';'.join(fr)
    if 'ForkJoinWorkerThread.run' not in s and 'TreeTask.compute' not in s:
        if 'CompileBroker' in s: return 'thread:JIT compiler'
        if 'VM_GenCollect' in s or 'GenCollectedHeap' in s or 'VMThread' in s: return 'thread:GC/VM'
        if 'RelabelCommand.main' in s or 'JavaMain' in s: return 'thread:main'
        return 'thread:other ('+fr[0][:40]+')'
    kernel=[x for x in fr if x.endswith('_[k]')]
    if kernel:
        for x in fr:
            if x.startswith('__x64_sys_') or x.startswith('__do_sys_'):
                return 'kernel:'+x.replace('_[k]','')
        if any('page_fault' in x or 'exc_page' in x for x in fr): return 'kernel:page fault'
        return 'kernel:other ('+kernel[0]+')'
    # native userland
    def under(name): return any(name in x for x in fr)
    java_frames=[x for x in fr if '/' in x and not x.endswith('.so')]
    # find innermost relabel/java frame
    if under('DirectoryMatch.') or under('RankMerge') or under('CompiledSpec') or under('dev/relabel/regex') or under('PrefixIndex') or under('LabelMatcher'):
        if under('DirectoryMatch.enter'): return 'java:match (enter: per directory)'
        return 'java:match (lookup)'
    if under('NativeIo.'):
        # java side vs native glue
        if leaf.startswith('dev/relabel') or leaf.startswith('java/') or leaf.startswith('com/sun/jna'):
            if under('NativeIo.readDirectory') and not under('NativeIo.getdents64'):
                return 'java:getdents parse'
            return 'java:JNA java side ('+[x for x in fr if 'NativeIo.' in x][-1].split('.')[-1]+')'
        return 'native:JNA/glibc glue'
    if 'GC' in s or 'Collect' in s: return 'gc in worker'
    if under('LabelRules') : return 'java:label compare'
    if under('Walk.apply'): return 'java:apply (label bytes->String, decide)'
    if under('NativeDirectory.entries'): return 'java:entries wrap'
    if under('ForkJoinTask.fork') or under('ForkJoinPool') and not under('TreeTask.compute'): return 'java:fork/join'
    if under('Walk.label'): return 'java:Walk.label'
    if under('DirectoryTask.visitEntry'): return 'java:visitEntry other'
    if under('TreeTask'): return 'java:TreeTask other'
    return 'java:other ('+leaf[:50]+')'
for line in open(f):
    line=line.rstrip()
    if not line: continue
    stack,n=line.rsplit(' ',1); n=int(n); fr=stack.split(';')
    total+=n; cats[classify(fr)]+=n
print('total',total)
for k,n in sorted(cats.items(), key=lambda x:-x[1]): print(f"{n:6d} {100*n/total:5.1f}% {k}")
