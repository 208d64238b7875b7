# alternate-read-ahead.py: the C floor, relabel at 437c4ea (/work/base) and with read-ahead.patch applied (/work/main); "stat" added by hand for the last run
import subprocess, time, resource, statistics, sys, os
T=sys.argv[1]; R=int(sys.argv[2]); tree=sys.argv[3] if len(sys.argv)>3 else '/dev/shm/tree'
fc='/etc/selinux/default/contexts/files/file_contexts'
cmds={
 'floor':['/tmp/ffm/check-floor','-T',T,tree],
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
fl=statistics.median(x[0] for x in res['floor'])
print('T',T,'rounds',R,tree,os.getloadavg())
for k,v in res.items():
    w=statistics.median(x[0] for x in v); u=statistics.median(x[1] for x in v); s=statistics.median(x[2] for x in v)
    ratios=sorted(a[0]/b[0] for a,b in zip(v,res['floor'])); q=len(ratios)//4
    print('%-6s wall %.3f  user %.3f sys %.3f  /floor %.2f (paired median %.2f, IQR %.2f-%.2f)'%(k,w,u,s,w/fl,statistics.median(ratios),ratios[q],ratios[-q-1]))
nb=sorted(a[0]/b[0] for a,b in zip(res['new'],res['base'])); q=len(nb)//4
print('new/base wall paired median %.3f (IQR %.3f-%.3f)'%(statistics.median(nb),nb[q],nb[-q-1]))
nb=sorted((a[1]+a[2])/(b[1]+b[2]) for a,b in zip(res['new'],res['base']))
print('new/base CPU paired median %.3f (IQR %.3f-%.3f)'%(statistics.median(nb),nb[q],nb[-q-1]))
