# The sixteenth pass's alternation (issue 14, goal 2): the C floor, check-floor's walk on the JVM through
# JNA and through JNI (WalkFloor), relabel as built (JNA), and relabel with jni-prototype/Libc-jni.patch
# applied, its per-entry and per-directory calls through JNI one by one ("jni") and batched, one JNI call
# per getdents64 chunk ("batch"); in order on even rounds and in reverse on odd ones, round 0 a warm-up.
#
#   python3 alternate-jni.py T ROUNDS [TREE]      (TREE: /dev/shm/tree, the mirror of /usr and /etc)
#
# Set up by hand (nothing here is built by the repository's build): /work/main, this checkout built
# (mvn -B package -DskipTests) with `bin/relabel compile` run; /work/jni, a worktree of the same commit
# with jni-prototype/Libc-jni.patch applied and built the same way; /work/jni-proto/libc-jni.so, from
# jni-prototype/libc-jni.c (cc -O2 -shared -fPIC -I$JAVA_HOME/include -I$JAVA_HOME/include/linux);
# /tmp/ffm/check-floor (cc -O2 -pthread benchmarks/floor/check-floor.c); /tmp/ffm/wfcmd, the java
# command line of WalkFloor as `relabel-bench scaling --jvm-floors` makes it (its archive, flags and
# (prefetch: the JNA build of the same worktree with -Drelabel.prefetch=true; check-T1-prefetch31.txt ran only floor, jna and prefetch)
import subprocess, time, resource, statistics, sys, os
T=sys.argv[1]; R=int(sys.argv[2]); tree=sys.argv[3] if len(sys.argv)>3 else '/dev/shm/tree'
fc='/etc/selinux/default/contexts/files/file_contexts'
env=dict(os.environ); envj=dict(os.environ, RELABEL_JAVA_OPTS='-Drelabel.jni=/work/jni-proto/libc-jni.so')
envp=dict(os.environ, RELABEL_JAVA_OPTS='-Drelabel.prefetch=true')
envb=dict(os.environ, RELABEL_JAVA_OPTS='-Drelabel.jni=/work/jni-proto/libc-jni.so -Drelabel.jni.batch=true')
WF=open('/tmp/ffm/wfcmd').read().split()
cmds={
 'floor':(['/tmp/ffm/check-floor','-T',T,tree],env),
 'fjna':(WF+['jna','-T',T,tree],env),
 'fjni':(WF+['jni','-T',T,tree],env),
 'jna':(['/work/main/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],env),
 'jni':(['/work/jni/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],envj),
 'prefetch':(['/work/jni/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],envp),
 'batch':(['/work/jni/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],envb),
}
res={k:[] for k in cmds}
for r in range(R+1):
    for k,(c,e) in (cmds.items() if r%2==0 else reversed(list(cmds.items()))):
        u0=resource.getrusage(resource.RUSAGE_CHILDREN)
        t0=time.perf_counter()
        p=subprocess.run(c,stdout=subprocess.PIPE,stderr=subprocess.PIPE,env=e)
        w=time.perf_counter()-t0
        u1=resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode!=0: print(k,'rc',p.returncode,p.stderr[-300:]); sys.exit(1)
        if r>0: res[k].append((w,u1.ru_utime-u0.ru_utime,u1.ru_stime-u0.ru_stime))
fl=statistics.median(x[0] for x in res['floor'])
print('T',T,'rounds',R,tree, os.getloadavg())
for k,v in res.items():
    w=statistics.median(x[0] for x in v); u=statistics.median(x[1] for x in v); s=statistics.median(x[2] for x in v)
    ratios=sorted(a[0]/b[0] for a,b in zip(v,res['floor']))
    q=len(ratios)//4
    print('%-6s wall %.3f  user %.3f sys %.3f  /floor %.2f (paired median %.2f, IQR %.2f-%.2f)'%(k,w,u,s,w/fl,statistics.median(ratios),ratios[q],ratios[-q-1]))
nb=sorted(a[0]/b[0] for a,b in zip(res['jni'],res['jna']))
q=len(nb)//4
print('jni/jna paired median %.3f (IQR %.3f-%.3f)'%(statistics.median(nb),nb[q],nb[-q-1]))
nb=sorted(a[0]/b[0] for a,b in zip(res['batch'],res['jna']))
q=len(nb)//4
print('batch/jna paired median %.3f (IQR %.3f-%.3f)'%(statistics.median(nb),nb[q],nb[-q-1]))
nb=sorted(a[0]/b[0] for a,b in zip(res['prefetch'],res['jna']))
q=len(nb)//4
print('prefetch/jna paired median %.3f (IQR %.3f-%.3f)'%(statistics.median(nb),nb[q],nb[-q-1]))
