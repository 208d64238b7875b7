import sys, collections
src=open('/tmp/tools/cat.py').read().split("for line in open(f):")[0]
sys_argv=sys.argv; sys.argv=['x',sys_argv[1]]; exec(src); sys.argv=sys_argv
W=float(sys.argv[2]); WU=float(sys.argv[3]); E=float(sys.argv[4])
cats=collections.Counter(); total=0
for line in open(sys.argv[1]):
    line=line.rstrip()
    if not line: continue
    stack,n=line.rsplit(' ',1); n=int(n); fr=stack.split(';')
    c=classify(fr)
    if c.startswith('thread:'): continue
    cats[c]+=n; total+=n
def s(pred): 
    v=sum(n for k,n in cats.items() if pred(k)); return v
rows=[
 ('kernel: getxattrat (label read)', s(lambda k:k=='kernel:__x64_sys_getxattrat')),
 ('kernel: statx (each entry; each directory for -x)', s(lambda k:k=='kernel:__x64_sys_statx')),
 ('kernel: getdents64', s(lambda k:k=='kernel:__x64_sys_getdents64')),
 ('kernel: openat + close', s(lambda k:k in('kernel:__x64_sys_openat','kernel:__x64_sys_close'))),
 ('kernel: syscall entry/exit, other', s(lambda k:k.startswith('kernel:') and k not in('kernel:__x64_sys_getxattrat','kernel:__x64_sys_statx','kernel:__x64_sys_getdents64','kernel:__x64_sys_openat','kernel:__x64_sys_close'))),
 ('JNA dispatch (libjnidispatch, libffi, glibc stubs, JNI copies)', s(lambda k:k=='native:JNA/glibc glue')),
 ('JNA, Java side (name buffer, statx parsing, errno)', s(lambda k:k.startswith('java:JNA java side'))),
 ('matching: DirectoryMatch.lookup, per entry', s(lambda k:k=='java:match (lookup)')),
 ('matching: DirectoryMatch.enter, per directory', s(lambda k:k=='java:match (enter: per directory)')),
 ('getdents64 records parsed, entry objects', s(lambda k:k in('java:getdents parse','java:entries wrap'))),
 ('label comparison', s(lambda k:k in('java:apply (label bytes->String, decide)','java:label compare'))),
 ('walk: visitEntry, label(), path join, name String', s(lambda k:k in('java:visitEntry other','java:Walk.label'))),
 ('tasks: TreeTask, fork, join', s(lambda k:k in('java:TreeTask other','java:fork/join'))),
 ('GC in the worker', s(lambda k:k=='gc in worker')),
]
rest=total-sum(v for _,v in rows)
rows.append(('other',rest))
user=sum(v for g,v in rows if not g.startswith('kernel'))
for g,v in rows:
    print(f"| {g} | {100*v/total:4.1f}% | {W*v/total/E*1e6:4.2f} |")
print('user share', user/total, 'worker samples', total)
