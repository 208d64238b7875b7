"""Scrambles the labels of part of an image's root (argv[1]) before a relabel boot: about a third of
the entries under /etc, /usr/share, /var, /opt, /srv, /home and /root get a wrong (but
valid) type, another user or role, or no label at all. What the boot needs before a relabel can run
keeps its label (systemd, the dynamic loader and libraries, the JVM, relabel, the policy, /var/log
where journald keeps the journal), as on a machine whose labels drifted rather than one that
cannot boot. Prints how many entries it changed."""
import os
import random
import sys

root = sys.argv[1]
TREES = ["etc", "usr/share", "var", "opt", "srv", "home", "root"]
# What systemd, its generators and the JVM read before any relabel can run.
KEEP = ["etc/selinux", "etc/systemd", "etc/ld.so.cache", "etc/ld.so.conf", "etc/ld.so.conf.d",
        "etc/relabel-vmtest", "etc/passwd", "etc/group", "etc/nsswitch.conf", "etc/localtime",
        "etc/alternatives", "etc/java-17-openjdk", "etc/machine-id", "etc/fstab", "etc/hostname",
        "usr/share/relabel", "usr/share/zoneinfo", "var/lib/selinux", "var/log"]
WRONG = ["system_u:object_r:tmp_t:s0", "system_u:object_r:etc_t:s0", "system_u:object_r:bin_t:s0",
         "staff_u:object_r:usr_t:s0", "system_u:object_r:var_t:s0", None]
random.seed(20261201)
changed = 0
for tree in TREES:
    top = os.path.join(root, tree)
    for directory, dirs, files in os.walk(top):
        # In name order: the same entries get the same labels in every image (the directory order
        # of a fresh copy is the filesystem's hash order, which differs from one copy to the next).
        dirs.sort()
        files.sort()
        relative = os.path.relpath(directory, root)
        if any(relative == k or relative.startswith(k + "/") for k in KEEP):
            dirs[:] = []
            continue
        for name in dirs + files:
            path = os.path.join(directory, name)
            if os.path.relpath(path, root) in KEEP or random.random() > 0.33:
                continue
            label = random.choice(WRONG)
            if label is None:
                try:
                    os.removexattr(path, "security.selinux", follow_symlinks=False)
                except OSError:
                    continue
            else:
                os.setxattr(path, "security.selinux", label.encode() + b"\0", follow_symlinks=False)
            changed += 1
print(changed)
