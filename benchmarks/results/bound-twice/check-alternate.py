# Bind mounts that show entries twice (2026-12-06): relabel setfiles -n as built in /work/main (the
# walk checks every entry against the inodes bind mounts may show twice, none here) against the
# commit before it (e7f76aa, built in /tmp/base: git worktree add /tmp/base e7f76aa; mvn -B package
# -DskipTests), on /dev/shm/tree (cp -a --parents --attributes-only /usr /etc /dev/shm/tree),
# Debian's policy with -r. In order on even rounds and in reverse on odd ones, round 0 a warm-up;
# medians and the paired ratio with its interquartile range.
#
#   python3 check-alternate.py ROUNDS THREADS
import subprocess, time, resource, statistics, sys, os
R=int(sys.argv[1]); T=sys.argv[2]
fc='/etc/selinux/default/contexts/files/file_contexts'
def cmd(top): return [top + '/bin/relabel', 'setfiles', '-n', '-T', T, '-r', '/dev/shm/tree', fc, '/dev/shm/tree']
cmds={'new': cmd('/work/main'), 'base': cmd('/tmp/base')}
res={k: [] for k in cmds}
for r in range(R + 1):
    for k, c in (cmds.items() if r % 2 == 0 else reversed(list(cmds.items()))):
        u0=resource.getrusage(resource.RUSAGE_CHILDREN); t0=time.perf_counter()
        p=subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        w=time.perf_counter()-t0; u1=resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode not in (0,): print(k,'rc',p.returncode,p.stderr[-300:])
        if r>0: res[k].append((w,u1.ru_utime-u0.ru_utime,u1.ru_stime-u0.ru_stime))
print('T',T,'rounds',R,'load',os.getloadavg())
for k,v in res.items():
    print('%-5s wall %.3f user %.3f sys %.3f'%((k,)+tuple(statistics.median(x[i] for x in v) for i in range(3))))
v=sorted(a[0]/b[0] for a,b in zip(res['new'],res['base'])); q=len(v)//4
print('new/base wall median %.3f IQR %.3f-%.3f'%(statistics.median(v),v[q],v[-q-1]))
