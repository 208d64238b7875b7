import sys, os, time, subprocess, collections
# run a command, sample per-thread cpu (schedstat) every 5 ms; report per thread-kind CPU inside the worker-active window
cmd=sys.argv[1:]
p=subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
samples=[]
while p.poll() is None:
    t=time.time(); snap={}
    try:
        # find the java child (bin/relabel execs java, same pid)
        for tid in os.listdir(f'/proc/{p.pid}/task'):
            try:
                comm=open(f'/proc/{p.pid}/task/{tid}/comm').read().strip()
                run,wait,_=open(f'/proc/{p.pid}/task/{tid}/schedstat').read().split()
                snap[(tid,comm)]=(int(run),int(wait))
            except Exception: pass
    except Exception: pass
    samples.append((t,snap)); time.sleep(0.005)
def kind(c):
    if c.startswith('ForkJoinPool'): return 'worker'
    if c.startswith('C1 Compiler') or c.startswith('C2 Compiler'): return 'jit'
    if c=='VM Thread': return 'gc/vm'
    if c=='java': return 'main'
    return 'other'
# window: first and last sample where any worker's run time increased
prev={}; active=[]
for t,snap in samples:
    inc=any(k[1].startswith('ForkJoinPool') and v[0]>prev.get(k,(0,0))[0] for k,v in snap.items())
    if inc: active.append(t)
    prev=snap
if not active: print('no workers'); sys.exit()
t0,t1=active[0],active[-1]
def at(t):
    best=None
    for ts,snap in samples:
        if ts<=t: best=snap
    return best or {}
a=at(t0-0.006); b=at(t1)
agg=collections.Counter(); wt=collections.Counter()
for k,v in b.items():
    u=a.get(k,(0,0)); agg[kind(k[1])]+=(v[0]-u[0])/1e9; wt[kind(k[1])]+=(v[1]-u[1])/1e9
print(f"worker-active window {t1-t0:.3f} s; CPU in window: "+', '.join(f"{k} {v:.3f}" for k,v in agg.most_common())+"; runqueue wait: "+', '.join(f"{k} {v:.3f}" for k,v in wt.most_common()))
