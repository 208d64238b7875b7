import subprocess, time, resource, statistics, sys, os
T=sys.argv[1]; R=int(sys.argv[2])
J25='/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'; J17='/usr/lib/jvm/java-17-openjdk-amd64/bin/java'
JAR='/work/main/relabel-cli/target/relabel.jar'
common=['-XX:TieredStopAtLevel=1','-XX:+UseSerialGC','-XX:-UsePerfData','-Xss4m','-Xmn16m','-XX:+UseTransparentHugePages','-XX:CICompilerCount=1',
 '-Djna.platform.library.path=','-Djna.boot.library.path=/work/main/relabel-cli/target/jna/linux-x86-64','-Djna.nosys=true','-Djna.nounpack=true',
 '-Dwalk.floor.library=/tmp/ffm/libwalkfloor.so']
tree='/dev/shm/tree'
def jv(j,mode,tag,c2=False):
    extra=['-XX:SharedArchiveFile=/tmp/ffm/%s.jsa'%tag,'-Xshare:on']
    if j==J25: extra+=['--enable-native-access=ALL-UNNAMED']
    cm=[x for x in common if not (c2 and (x.startswith('-XX:TieredStop') or x.startswith('-XX:CICompilerCount')))]
    return [j]+extra+cm+['-cp',JAR+(':/tmp/ffm/wf25.jar' if j==J25 else ':/tmp/ffm/wf17.jar'),'WalkFloor',mode,'-T',T,tree]
cmds={
 'floor':['/tmp/ffm/check-floor','-T',T,tree],
 'jni17':jv(J17,'jni','jni17'),'jna17':jv(J17,'jna','jna17'),
 'jni25':jv(J25,'jni','jni25'),'jna25':jv(J25,'jna','jna25'),'ffm25':jv(J25,'ffm','ffm25'),'ffmc25':jv(J25,'ffmc','ffmc25'),'ffm25c2':jv(J25,'ffm','ffm25c2',True),'jni25c2':jv(J25,'jni','jni25c2',True),'jna25c2':jv(J25,'jna','jna25c2',True),
 'relabel':['/work/main/bin/relabel','setfiles','-T',T,'-r',tree,'/etc/selinux/default/contexts/files/file_contexts',tree],
}
# archives
for k,c in cmds.items():
    if c[0] in (J17,J25):
        tag=k; jsa='/tmp/ffm/%s.jsa'%tag
        if not os.path.exists(jsa):
            d=[x if not x.startswith('-XX:SharedArchiveFile') else '-XX:ArchiveClassesAtExit='+jsa for x in c]
            d=[x for x in d if not x.startswith('-Xlog:cds')]
            subprocess.run(d,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
            assert os.path.exists(jsa), d
res={k:[] for k in cmds}
for r in range(R):
    for k,c in cmds.items():
        u0=resource.getrusage(resource.RUSAGE_CHILDREN)
        t0=time.perf_counter()
        p=subprocess.run(c,stdout=subprocess.PIPE,stderr=subprocess.PIPE)
        w=time.perf_counter()-t0
        u1=resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode!=0: print(k,'rc',p.returncode,p.stderr[-300:]); sys.exit(1)
        if r==0 and k!='relabel': print(k,p.stdout.decode().strip(),p.stderr.decode().strip()[:120])
        res[k].append((w,u1.ru_utime-u0.ru_utime,u1.ru_stime-u0.ru_stime))
fl=statistics.median(x[0] for x in res['floor'])
print('T',T,'rounds',R, os.getloadavg())
for k,v in res.items():
    w=statistics.median(x[0] for x in v); u=statistics.median(x[1] for x in v); s=statistics.median(x[2] for x in v)
    ratios=sorted(a[0]/b[0] for a,b in zip(v,res['floor']))
    print('%-8s wall %.3f  user %.3f sys %.3f  /floor %.2f (paired %.2f-%.2f)'%(k,w,u,s,w/fl,ratios[1],ratios[-2]))
