import subprocess, time, sys, statistics, os, resource
cmds = {}
for arg in sys.argv[2:]:
    name, cmd = arg.split("=", 1)
    cmds[name] = cmd
n = int(sys.argv[1])
res = {k: [] for k in cmds}; cpu = {k: [] for k in cmds}
for i in range(n):
    order = list(cmds) if i % 2 == 0 else list(reversed(list(cmds)))
    for k in order:
        r0=resource.getrusage(resource.RUSAGE_CHILDREN); t = time.perf_counter()
        subprocess.run(cmds[k], shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        w=(time.perf_counter() - t) * 1000; r1=resource.getrusage(resource.RUSAGE_CHILDREN); cpu[k].append(1000*(r1.ru_utime-r0.ru_utime+r1.ru_stime-r0.ru_stime)); res[k].append(w)
base = None
for k, v in res.items():
    m = statistics.median(v)
    if base is None: base = m
    print(f"{k:30s} {m:7.1f} ms  {m/base:5.2f}x  min {min(v):.1f}  cpu {statistics.median(cpu[k]):.1f} ms")
