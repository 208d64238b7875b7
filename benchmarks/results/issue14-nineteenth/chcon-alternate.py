# The nineteenth pass's alternation: relabel chcon -R as built in /work/main ('ahead': when measured,
# a build whose chcon read its entries' labels ahead with librelabel, not kept), the eighteenth
# pass's (commit 8727909, built in BASE: one getxattrat per entry through JNA) and coreutils chcon,
# on TREE in "repeat" mode (every label is already CONTEXT: relabel only reads, chcon writes again)
# or "relabel" mode (every label another before each run: both write). In order on even rounds and
# in reverse on odd ones, round 0 a warm-up; medians, paired ratios with their interquartile range.
#
#   python3 chcon-alternate.py MODE T ROUNDS [TREE [BASE]]
#
# TREE: /dev/shm/tree, the mirror of /usr and /etc (README "Check the engine's speed"); BASE: git
# worktree add BASE 8727909, built (mvn -B package -DskipTests).
import subprocess, time, resource, statistics, sys, os
mode=sys.argv[1]; T=sys.argv[2]; R=int(sys.argv[3]); tree=sys.argv[4] if len(sys.argv)>4 else '/dev/shm/tree'
base=sys.argv[5] if len(sys.argv)>5 else '/tmp/base'
context='system_u:object_r:container_file_t:s0:c1,c2'
other='system_u:object_r:container_file_t:s0:c3,c4'
def relabel(top):
    return [top + '/bin/relabel', 'chcon', '-R', '-T', T, context, tree]
cmds={'ahead': relabel('/work/main'), 'base': relabel(base), 'chcon': ['chcon', '-R', context, tree]}
pairs=[('ahead', 'base'), ('ahead', 'chcon'), ('base', 'chcon')]
res={k: [] for k in cmds}
subprocess.run(['chcon', '-R', context, tree], check=True)
for r in range(R + 1):
    for k, c in (cmds.items() if r % 2 == 0 else reversed(list(cmds.items()))):
        if mode == 'relabel':
            subprocess.run(['chcon', '-R', other, tree], check=True)
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
print('mode', mode, 'T', T, 'rounds', R, tree, 'load', os.getloadavg())
for k, v in res.items():
    w, u, s=(statistics.median(x[i] for x in v) for i in range(3))
    print('%-6s wall %.3f  user %.3f  sys %.3f' % (k, w, u, s))
for a, b in pairs:
    print('%s/%s wall paired median %.3f (IQR %.3f-%.3f)' % ((a, b) + paired(res[a], res[b])))
    print('%s/%s CPU paired median %.3f (IQR %.3f-%.3f)' % ((a, b) + paired(res[a], res[b], -1)))
