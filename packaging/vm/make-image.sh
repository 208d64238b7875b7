#!/usr/bin/env bash
# Makes one bootable image for a VM scenario from the cached Debian root (build-base.sh):
# relabel installed by packaging/install.sh inside the root (its units, generator, jar, launcher,
# class data sharing archive and SELinux policy module), Debian's own selinux-autorelabel generator
# masked, /etc/selinux/config in MODE, the test service (guest/), every entry labelled by setfiles
# with the image's own policy, then the scenario's own setup, written to an ext4 image with
# mkfs.ext4 -d (no loop mount). OUT gets root.img, vmlinuz, initrd.img.
#
#   packaging/vm/make-image.sh BASE_ROOT SCENARIO MODE OUT
#     SCENARIO: autorelabel (scrambled labels and /.autorelabel), kernel (labels right; the guest
#               builds its own trees), jvm-missing (/.autorelabel, and no Java runtime),
#               debian-autorelabel (scrambled labels, Debian's own selinux-autorelabel, no relabel)
#     MODE: permissive or enforcing (SELINUX= of /etc/selinux/config)
set -euo pipefail
base=$1 scenario=$2 mode=$3 out=$4
here=$(cd -- "$(dirname -- "$0")" && pwd -P)
top=$(cd -- "$here/../.." && pwd -P)
[ -f "$top/relabel-cli/target/relabel.jar" ] || { echo "make-image: build first (mvn -B -DskipTests package)" >&2; exit 1; }
mkdir -p "$out"
root="$out/root"
rm -rf "$root"
cp -a "$base" "$root"
cleanup() { umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT

# The kernel's modules cut to those the guests load (vmtest's "modules loaded" line lists them) and
# the filesystems the checks mount, with what they need (modules.dep), then depmod: the other ~4,800
# entries were a quarter of the root, which every whole-root walk of the reference tools crosses at
# several milliseconds an entry under TCG. A wanted module the kernel has neither as a file nor
# built in stops the image.
guest_modules="ata_generic ata_piix autofs4 binfmt_misc button ccp configfs crc16 crc32c_generic dm_mod
  efi_pstore evdev ext4 floppy fuse i2c_piix4 ip_tables irqbypass jbd2 kvm kvm_amd kvm_intel libata loop
  mbcache pcspkr psmouse qemu_fw_cfg scsi_common scsi_mod serio_raw virtio virtio_blk virtio_pci
  virtio_pci_legacy_dev virtio_pci_modern_dev virtio_ring x_tables
  vfat fat nls_cp437 nls_ascii nls_utf8 nls_iso8859_1 efivarfs overlay"
for modules in "$root"/usr/lib/modules/*/; do
  python3 - "$modules" $guest_modules <<'PY'
import os, sys
top, wanted = sys.argv[1], {w.replace("-", "_") for w in sys.argv[2:]}
def name(path):
    return os.path.basename(path).split(".ko")[0].replace("-", "_")
deps = {}
with open(os.path.join(top, "modules.dep")) as lines:
    for line in lines:
        path, _, rest = line.partition(":")
        deps[path] = rest.split()
with open(os.path.join(top, "modules.builtin")) as lines:
    builtin = {name(line.strip()) for line in lines}
missing = wanted - {name(p) for p in deps} - builtin
if missing:
    sys.exit(f"make-image: no module {' '.join(sorted(missing))} in {top}")
keep, todo = set(), [p for p in deps if name(p) in wanted]
while todo:
    path = todo.pop()
    if path not in keep:
        keep.add(path)
        todo.extend(deps.get(path, []))
for path in deps:
    if path not in keep:
        os.remove(os.path.join(top, path))
print(f"make-image: kept {len(keep)} of {len(deps)} kernel modules", file=sys.stderr)
PY
  find "$modules/kernel" -depth -type d -empty -delete
  chroot "$root" depmod "$(basename "$modules")"
done

# relabel, installed as a user would: packaging/install.sh, run inside the root (its java makes the
# class data sharing archives; semodule loads the policy module into the root's policy store).
src="$root/opt/relabel-src"
mkdir -p "$src/relabel-cli/target"
cp -a "$top/bin" "$top/packaging" "$src/"
for built in relabel.jar relabel.classlist relabel-quick.classlist jna man completion; do
  [ -e "$top/relabel-cli/target/$built" ] && cp -a "$top/relabel-cli/target/$built" "$src/relabel-cli/target/"
done
mount -t proc proc "$root/proc"
if [ "$scenario" != debian-autorelabel ]; then
  chroot "$root" /bin/sh -c 'cd /opt/relabel-src && packaging/install.sh SELINUX_MODULE=yes' >&2
  # Debian's own relabel would race ours (install.sh's header says how to choose ours).
  mkdir -p "$root/etc/systemd/system-generators"
  ln -sf /dev/null "$root/etc/systemd/system-generators/selinux-autorelabel-generator.sh"
fi
umount "$root/proc"
rm -rf "$src"

# Files no guest runs, cut for the same reason as the modules (~4,400 of the ~14,000 entries left,
# each crossed by the reference tools' ~10 whole-root walks a boot): networkx (for setools' python
# analyses; sesearch runs on the host), the time zones but UTC's (/etc/localtime; Java has its own),
# and perl's modules (the guest runs no perl but debconf's and deb-systemd-helper's, which
# perl-base's own modules serve). Cut after install.sh, whose policy build runs in the root.
rm -rf "$root"/usr/lib/python3/dist-packages/networkx "$root"/usr/lib/python3/dist-packages/networkx-*
find "$root/usr/share/zoneinfo" -mindepth 1 -maxdepth 1 ! -name Etc ! -name UTC -exec rm -rf {} +
find "$root/usr/share/zoneinfo/Etc" -mindepth 1 ! -name UTC -delete
rm -rf "$root"/usr/share/perl "$root"/usr/lib/x86_64-linux-gnu/perl

# The system: SELinux per MODE, a root filesystem, a persistent journal (boot 2 reads boot 1's),
# the serial console's getty off (the console is the test's log).
cat > "$root/etc/selinux/config" <<CONFIG
SELINUX=$mode
SELINUXTYPE=default
CONFIG
echo '/dev/vda / ext4 rw,relatime 0 1' > "$root/etc/fstab"
echo relabel-vm > "$root/etc/hostname"
mkdir -p "$root/var/log/journal"
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"

# The test service: runs the scenario's checks once multi-user.target is reached, prints them on
# the serial console and powers off. It runs unconfined (unconfined_exec_t, given by
# file_contexts.local so that every relabel keeps it), as an admin's shell would.
install -D -m 0755 "$here/guest/vmtest" "$root/usr/local/sbin/relabel-vmtest"
install -D -m 0644 "$here/guest/kernel-checks" "$root/usr/local/lib/relabel-vmtest/kernel-checks"
install -D -m 0644 "$here/guest/relabel-vmtest.service" "$root/etc/systemd/system/relabel-vmtest.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../relabel-vmtest.service "$root/etc/systemd/system/multi-user.target.wants/relabel-vmtest.service"
mkdir -p "$root/etc/relabel-vmtest"
echo "$scenario" > "$root/etc/relabel-vmtest/scenario"
echo "$mode" > "$root/etc/relabel-vmtest/mode"
printf '%s\n' '/usr/local/sbin/relabel-vmtest	--	system_u:object_r:unconfined_exec_t:s0' \
  >> "$root/etc/selinux/default/contexts/files/file_contexts.local"
# install.sh compiled the policy (relabel compile); the line above makes that stale, so compile
# again, as an admin does after editing file_contexts.local (the same jar: the guest trusts it).
if [ "$scenario" != debian-autorelabel ]; then
  "$top/bin/relabel" compile -f "$root/etc/selinux/default/contexts/files/file_contexts"
fi
# The reference tools for the differential checks, as copies that run in the test's own domain
# (bin_t: no transition), as relabel run by an admin does: the kernel then judges both alike. The
# installed ones run in setfiles_t, which may not relabel what an unconfined admin may (a device
# node of usr_t, seen in enforcing mode).
mkdir -p "$root/usr/local/sbin/vmtest-ref"
cp "$root/usr/sbin/setfiles" "$root/usr/local/sbin/vmtest-ref/setfiles"
ln -s setfiles "$root/usr/local/sbin/vmtest-ref/restorecon"
# mount and umount too: the installed ones make unconfined_t transition to unconfined_mount_t,
# which Debian's policy does not define (enforcing: no mount at all).
cp "$root/usr/bin/mount" "$root/usr/bin/umount" "$root/usr/local/sbin/vmtest-ref/"

# The relabel flag, made before the labels so that it has the policy's label for it, as one that
# 'fixfiles onboot' wrote on a labelled system has.
# The enforcing autorelabel's flag holds -M too (fixfiles -M onboot): relabel_t binds each
# filesystem in /tmp and labels what mounts cover there (the guest checks /dev on the root
# filesystem, beneath devtmpfs); the permissive one's does not, and that stays as it was.
case $scenario in
  autorelabel | debian-autorelabel | jvm-missing)
    if [ "$scenario" = autorelabel ] && [ "$mode" = enforcing ]; then flag="-F -M"; else flag="-F"; fi
    echo "$flag" > "$root/.autorelabel"
    echo "$flag" > "$root/etc/relabel-vmtest/flag"
    ;;
esac
# Every entry labelled as the image's policy says, with the host's setfiles.
fc="$root/etc/selinux/default/contexts/files/file_contexts"
setfiles -F -r "$root" "$fc" "$root" >&2
# relabel_t's rights in the image's policy, as the loaded module makes them (README lists them).
if [ "$scenario" != debian-autorelabel ]; then
  policy=$(ls "$root"/etc/selinux/default/policy/policy.* | tail -1)
  sesearch -A -s relabel_t "$policy" > "$out/relabel_t.allow"
  sesearch --dontaudit -s relabel_t "$policy" > "$out/relabel_t.dontaudit"
  sesearch -T -t relabel_exec_t "$policy" > "$out/relabel_t.transitions"
fi
# The flag as 'fixfiles onboot' leaves it on an SELinux system: written by an admin's shell
# (unconfined_t), whose type transition in / makes it etc_runtime_t, which systemd's generators
# may read (its file_contexts label, default_t, they may not).
if [ -f "$root/.autorelabel" ]; then
  setfattr -h -n security.selinux -v system_u:object_r:etc_runtime_t:s0 "$root/.autorelabel"
fi

case $scenario in
  autorelabel | debian-autorelabel)
    python3 "$here/scramble.py" "$root" > "$out/scrambled.txt"
    # What a mount covers at boot: /dev on the root filesystem and an entry in it, mislabelled.
    touch "$root/dev/vmtest-covered"
    setfattr -h -n security.selinux -v system_u:object_r:tmp_t:s0 "$root/dev" "$root/dev/vmtest-covered"
    ;;
  jvm-missing)
    python3 "$here/scramble.py" "$root" > "$out/scrambled.txt"
    mv "$root/usr/lib/jvm" "$root/usr/lib/jvm.missing"
    ;;
  kernel) ;;
  *) echo "make-image: unknown scenario $scenario" >&2; exit 2 ;;
esac

cp "$root"/boot/vmlinuz-* "$out/vmlinuz"
cp "$root"/boot/initrd.img-* "$out/initrd.img"
size=$(( $(du -sm "$root" | cut -f1) + 1200 ))
rm -f "$out/root.img"
mkfs.ext4 -q -F -L relabel-vm -E root_owner=0:0 -d "$root" "$out/root.img" "${size}M"
rm -rf "$root"
