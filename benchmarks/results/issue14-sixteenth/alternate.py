# The sixteenth pass's alternations (issue 14, goal 2), in order on even rounds and in reverse on odd ones,
# round 0 a warm-up; medians, paired ratios to the C floor with their interquartile range.
#
#   python3 alternate.py jni T ROUNDS [TREE]         the C floor, check-floor's walk on the JVM through JNA and
#                                                    JNI (WalkFloor), relabel as built (JNA), and relabel with
#                                                    jni-prototype/Libc-jni.patch: its calls through JNI one by
#                                                    one ("jni"), one JNI call per getdents64 chunk ("batch"),
#                                                    and the same JNA calls made while a listing is parsed
#                                                    ("prefetch")
#   python3 alternate.py read-ahead T ROUNDS [TREE]  the C floor, relabel at 437c4ea (/work/base) and with
#                                                    read-ahead.patch applied (/work/main); "stat": statuses
#                                                    alone read ahead (a variant of the patch built by hand)
#
# TREE: /dev/shm/tree, the mirror of /usr and /etc. Set up by hand (nothing here is built by the
# repository's build): /work/main, this checkout built (mvn -B package -DskipTests) with `bin/relabel
# compile` run; /work/jni, a worktree of the same commit with jni-prototype/Libc-jni.patch applied and
# built the same way; /work/jni-proto/libc-jni.so, from jni-prototype/libc-jni.c (cc -O2 -shared -fPIC
# -I$JAVA_HOME/include -I$JAVA_HOME/include/linux); /tmp/ffm/check-floor (cc -O2 -pthread
# benchmarks/floor/check-floor.c); /tmp/ffm/wfcmd, the java command line of WalkFloor as `relabel-bench
# scaling --jvm-floors` makes it (its archive, flags and class path, with walk.floor.library naming
# walk-floor-jni.c built with cc -O2 -shared -fPIC). Each run's file shows the commands it alternated (some ran fewer).
import subprocess, time, resource, statistics, sys, os
SET=sys.argv[1]; T=sys.argv[2]; R=int(sys.argv[3]); tree=sys.argv[4] if len(sys.argv)>4 else '/dev/shm/tree'
fc='/etc/selinux/default/contexts/files/file_contexts'
def relabel(top, opts=''):
    return (['env', 'RELABEL_JAVA_OPTS=' + opts, top + '/bin/relabel', 'setfiles', '-T', T, '-r', tree, fc, tree])
JNI='-Drelabel.jni=/work/jni-proto/libc-jni.so'
floor=['/tmp/ffm/check-floor', '-T', T, tree]
if SET == 'jni':
    WF=open('/tmp/ffm/wfcmd').read().split()
    cmds={'floor': floor, 'fjna': WF + ['jna', '-T', T, tree], 'fjni': WF + ['jni', '-T', T, tree],
          'jna': relabel('/work/main'), 'jni': relabel('/work/jni', JNI),
          'prefetch': relabel('/work/jni', '-Drelabel.prefetch=true'),
          'batch': relabel('/work/jni', JNI + ' -Drelabel.jni.batch=true')}
    pairs=[('jni', 'jna'), ('batch', 'jna'), ('prefetch', 'jna')]
else:
    cmds={'floor': floor, 'base': relabel('/work/base'), 'new': relabel('/work/main'),
          'stat': relabel('/work/main', '-Drelabel.nolabels=true')}
    pairs=[('new', 'base'), ('stat', 'base')]
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
