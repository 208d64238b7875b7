# The deep-trees check (2026-12-07): the C floor, this build ("head": the walk whose tasks drop
# their path and match once their entries are visited and keep what a visit throws) and commit
# 78d0a64 ("base", built in BASE), in order on even rounds and in reverse on odd ones, round 0 a
# warm-up; medians, paired ratios to the C floor with their interquartile range.
#
#   python3 alternate.py T ROUNDS [TREE [BASE]]
#
# TREE: /dev/shm/tree, the mirror of /usr and /etc (cp -a --parents --attributes-only /usr /etc
# TREE), labelled once; /work/main and BASE (git worktree add BASE 78d0a64) built (mvn -B package
# -DskipTests) with `bin/relabel compile` run; /tmp/ffm/check-floor (cc -O2 -pthread
# benchmarks/floor/check-floor.c).
import subprocess, time, resource, statistics, sys, os
T=sys.argv[1]; R=int(sys.argv[2]); tree=sys.argv[3] if len(sys.argv)>3 else '/dev/shm/tree'
base=sys.argv[4] if len(sys.argv)>4 else '/tmp/base'
fc='/etc/selinux/default/contexts/files/file_contexts'
def relabel(top, opts=''):
    return (['env', 'RELABEL_JAVA_OPTS=' + opts, top + '/bin/relabel', 'setfiles', '-T', T, '-r', tree, fc, tree])
floor=['/tmp/ffm/check-floor', '-T', T, tree]
cmds={'floor': floor, 'head': relabel('/work/main'), 'base': relabel(base)}
pairs=[('head', 'base')]
res={k: [] for k in cmds}
for r in range(R + 1):
    for k, c in (cmds.items() if r % 2 == 0 else reversed(list(cmds.items()))):
        u0=resource.getrusage(resource.RUSAGE_CHILDREN)
        t0=time.perf_counter()
        p=subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        w=time.perf_counter() - t0
        u1=resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0: print(k, 'rc', p.returncode, p.stderr[-300:]); sys.exit(1)
        if r > 0: res[k].append((w, u1.ru_utime - u0.ru_utime, u1.ru_stime - u0.ru_stime))
def paired(a, b, i=0):
    v=sorted((x[i] if i >= 0 else x[1] + x[2]) / (y[i] if i >= 0 else y[1] + y[2]) for x, y in zip(a, b)); q=len(v) // 4
    return statistics.median(v), v[q], v[-q - 1]
fl=statistics.median(x[0] for x in res['floor'])
print('T', T, 'rounds', R, tree, os.getloadavg())
for k, v in res.items():
    w, u, s=(statistics.median(x[i] for x in v) for i in range(3))
    print('%-8s wall %.3f  user %.3f sys %.3f  /floor %.2f (paired median %.2f, IQR %.2f-%.2f)' % ((k, w, u, s, w / fl) + paired(v, res['floor'])))
for a, b in pairs:
    print('%s/%s wall paired median %.3f (IQR %.3f-%.3f)' % ((a, b) + paired(res[a], res[b])))
    print('%s/%s CPU paired median %.3f (IQR %.3f-%.3f)' % ((a, b) + paired(res[a], res[b], -1)))
