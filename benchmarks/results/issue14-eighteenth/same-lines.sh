#!/bin/bash
# Eighteenth pass (issue 14): 5,000 entries of the mirror given a wrong label, directories included; setfiles -n -v lines with
# librelabel reading directories ahead (this build), librelabel off, and the 0e48e48 build; then a
# relabel at -T 2 and a check that nothing is left.
set -e
cd /work/main
tree=/dev/shm/tree fc=/etc/selinux/default/contexts/files/file_contexts
python3 - <<'PY'
import os, random
random.seed(18)
paths=[]
for d, dirs, files in os.walk('/dev/shm/tree'):
    paths += [os.path.join(d, n) for n in dirs + files]
dirs=[p for p in paths if os.path.isdir(p) and not os.path.islink(p)]
pick=random.sample(paths, 4000) + random.sample(dirs, 1000)
for p in pick:
    os.setxattr(p, 'security.selinux', b'system_u:object_r:scrambled_t:s0\0', follow_symlinks=False)
print('scrambled', len(set(pick)), 'of', len(paths), 'entries,', len(set(p for p in pick if p in set(dirs))), 'directories')
PY
for T in 1 2; do
  bin/relabel setfiles -T $T -n -v -r $tree $fc $tree > /tmp/p18/dirs-T$T.txt
  RELABEL_JAVA_OPTS=-Drelabel.native= bin/relabel setfiles -T $T -n -v -r $tree $fc $tree > /tmp/p18/jna-T$T.txt
  /tmp/base/bin/relabel setfiles -T $T -n -v -r $tree $fc $tree > /tmp/p18/files-T$T.txt
done
wc -l /tmp/p18/dirs-T1.txt
cmp /tmp/p18/dirs-T1.txt /tmp/p18/jna-T1.txt && cmp /tmp/p18/dirs-T1.txt /tmp/p18/files-T1.txt && echo "T1: the same lines in the same order (this build, librelabel off, 0e48e48)"
for f in dirs jna files; do sort /tmp/p18/$f-T2.txt > /tmp/p18/$f-T2.sorted; done
cmp /tmp/p18/dirs-T2.sorted /tmp/p18/jna-T2.sorted && cmp /tmp/p18/dirs-T2.sorted /tmp/p18/files-T2.sorted && cmp /tmp/p18/dirs-T2.sorted <(sort /tmp/p18/dirs-T1.txt) && echo "T2: the same lines as T1 (sorted), all three builds"
grep -c scrambled_t /tmp/p18/dirs-T1.txt
bin/relabel setfiles -T 2 -r $tree $fc $tree
left=$(bin/relabel setfiles -T 1 -n -v -r $tree $fc $tree | wc -l)
echo "after a -T 2 relabel: $left lines left"
