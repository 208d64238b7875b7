import subprocess, time, resource, statistics, sys, os
T=sys.argv[1]; R=int(sys.argv[2]); tree='/dev/shm/tree'
fc='/etc/selinux/default/contexts/files/file_contexts'
J17='/usr/lib/jvm/java-17-openjdk-amd64/bin/java'
common=['-XX:TieredStopAtLevel=1','-XX:+UseSerialGC','-XX:-UsePerfData','-Xss4m','-Xmn16m','-XX:+UseTransparentHugePages','-XX:CICompilerCount=1',
 '-Djna.platform.library.path=','-Djna.boot.library.path=/tmp/ffm/jna/linux-x86-64','-Djna.nosys=true','-Djna.nounpack=true','-Dwalk.floor.library=/tmp/ffm/libwalkfloor.so']
jsa='/tmp/ffm/jna17b.jsa'
jna=[J17,'-XX:SharedArchiveFile='+jsa,'-Xshare:on']+common+['-cp','/tmp/ffm/floorjar.jar:/tmp/ffm/wf17.jar','WalkFloor','jna','-T',T,tree]
if not os.path.exists(jsa):
    d=[x if not x.startswith('-XX:SharedArchiveFile') else '-XX:ArchiveClassesAtExit='+jsa for x in jna if x!='-Xshare:on']
    subprocess.run(d,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); assert os.path.exists(jsa)
cmds={
 'floor':['/tmp/ffm/check-floor','-T',T,tree],
 'jna':jna,
 'base':['/work/base/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],
 'new':['/work/main/bin/relabel','setfiles','-T',T,'-r',tree,fc,tree],
}
res={k:[] for k in cmds}
for r in range(R+1):
    for k,c in (cmds.items() if r%2==0 else reversed(list(cmds.items()))):
        u0=resource.getrusage(resource.RUSAGE_CHILDREN)
        t0=time.perf_counter()
        p=subprocess.run(c,stdout=subprocess.PIPE,stderr=subprocess.PIPE)
        w=time.perf_counter()-t0
        u1=resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode!=0: print(k,'rc',p.returncode,p.stderr[-300:]); sys.exit(1)
        if r>0: res[k].append((w,u1.ru_utime-u0.ru_utime,u1.ru_stime-u0.ru_stime))
        elif p.stderr.strip(): print(k, p.stderr.decode()[:200])
fl=statistics.median(x[0] for x in res['floor'])
print('T',T,'rounds',R, os.getloadavg())
for k,v in res.items():
    w=statistics.median(x[0] for x in v); u=statistics.median(x[1] for x in v); s=statistics.median(x[2] for x in v)
    ratios=sorted(a[0]/b[0] for a,b in zip(v,res['floor']))
    print('%-8s wall %.3f  user %.3f sys %.3f  /floor %.2f (paired %.2f-%.2f)'%(k,w,u,s,w/fl,ratios[1],ratios[-2]))
nb=sorted(a[0]/b[0] for a,b in zip(res['new'],res['base']))
print('new/base paired median %.3f (%.3f-%.3f)'%(statistics.median(nb),nb[1],nb[-2]))
