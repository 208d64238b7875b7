# Bind mounts at scale (2026-12-06): relabel setfiles -n -r on /dev/shm/tree (cp -a --parents
# --attributes-only /usr /etc /dev/shm/tree: 141,908 entries) with Debian's policy, without and with
# /dev/shm/tree/usr/lib (73,571 entries) bound onto /dev/shm/tree/lib2, so that the walk meets each of
# those inodes under two names; Debian's setfiles 3.4 on the bound tree once a round. Rounds
# alternate the order; medians of wall, user, sys (s) and peak RSS (MB, GNU time's %M).
#
#   python3 scale.py ROUNDS        (as root; mounts and unmounts the bind itself)
import subprocess, statistics, sys, os
R = int(sys.argv[1])
fc = '/etc/selinux/default/contexts/files/file_contexts'
relabel = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../bin/relabel')
def timed(cmd):
    p = subprocess.run(['/usr/bin/time', '-f', '%e %U %S %M', '-o', '/tmp/scale.time'] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.returncode == 0, (cmd, p.stderr[-300:])
    w, u, s, m = open('/tmp/scale.time').read().split()[-4:]
    return float(w), float(u), float(s), int(m) / 1024, p.stderr.count(b'conflicting specifications')
def bound(on):
    os.makedirs('/dev/shm/tree/lib2', exist_ok=True)
    while subprocess.run(['umount', '/dev/shm/tree/lib2'], stderr=subprocess.DEVNULL).returncode == 0:
        pass
    if on:
        subprocess.run(['mount', '--bind', '/dev/shm/tree/usr/lib', '/dev/shm/tree/lib2'], check=True)
runs = {}
def add(key, cmd):
    runs.setdefault(key, []).append(timed(cmd))
for r in range(R + 1):
    for on in ([False, True] if r % 2 == 0 else [True, False]):
        bound(on)
        for t in ('1', '2'):
            add(('bound' if on else 'plain') + ' relabel -T ' + t,
                [relabel, 'setfiles', '-n', '-T', t, '-r', '/dev/shm/tree', fc, '/dev/shm/tree'])
        if on and r <= 3:
            add('bound setfiles 3.4', ['setfiles', '-n', '-r', '/dev/shm/tree', fc, '/dev/shm/tree'])
    if r == 0:
        runs.clear()  # warm-up
bound(False)
print('rounds', R, 'load', os.getloadavg(), open('/proc/cpuinfo').read().split('model name')[1].split('\n')[0])
for k, v in runs.items():
    print('%-24s n=%2d wall %.3f user %.3f sys %.3f rss %.0f MB conflicts %d' % ((k, len(v)) + tuple(
        statistics.median(x[i] for x in v) for i in range(5))))
