import subprocess, time, statistics, sys, os
R=int(sys.argv[1]); args=sys.argv[2:]
cmds={'new':['/work/main/bin/relabel']+args,'base':['/tmp/base/bin/relabel']+args}
res={k:[] for k in cmds}
for r in range(R+1):
    for k,c in (cmds.items() if r%2==0 else reversed(list(cmds.items()))):
        t0=time.perf_counter(); p=subprocess.run(c,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); w=time.perf_counter()-t0
        if r>0: res[k].append(w)
print(' '.join(args), 'rounds',R,'load',os.getloadavg()[0])
for k,v in res.items(): print('%-5s wall median %.4f'%(k,statistics.median(v)))
v=sorted(a/b for a,b in zip(res['new'],res['base'])); q=len(v)//4
print('new/base median %.3f IQR %.3f-%.3f'%(statistics.median(v),v[q],v[-q-1]))
