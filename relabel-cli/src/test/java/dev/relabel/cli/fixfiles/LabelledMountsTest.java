package dev.relabel.cli.fixfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.policy.PathBytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which filesystems the fixfiles verbs relabel, from mountinfo texts (fixfiles' get_*_labeled_mounts). */
class LabelledMountsTest {
  private static final String SELINUX = String.join("\n",
      "22 27 0:21 / /proc rw,relatime - proc proc rw",
      "23 27 0:22 / /sys rw,relatime - sysfs sysfs rw,seclabel",
      "24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,seclabel,size=1k",
      "26 24 0:24 / /dev/pts rw,relatime - devpts devpts rw,seclabel,mode=600",
      "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,seclabel",
      "28 27 254:1 / /boot ro,relatime - ext4 /dev/vda1 ro,seclabel",
      "29 27 0:25 / /run rw,relatime - tmpfs tmpfs rw,seclabel",
      "30 27 254:2 / /srv/my\\040data rw,relatime - xfs /dev/vdb rw,seclabel",
      "31 27 254:3 / /mnt/usb rw,relatime - vfat /dev/sdb1 rw",
      "32 27 254:4 / /home rw,relatime - ext4 /dev/vdc rw,seclabel",
      "33 27 0:26 / /home rw,relatime - nfs server:/home rw",
      "");

  @Test
  void withSeclabelTheMarkedMountsButWhatFixfilesFiltersOut() {
    LabelledMounts mounts = LabelledMounts.of(SELINUX, "/");
    assertEquals(List.of("/", "/srv/my data"), mounts.readWrite(),
        "not /sys, devtmpfs is kept only if marked and not filtered, not devpts, tmpfs, vfat, nor /home (nfs on top)");
    assertEquals(List.of("/boot"), mounts.readOnly());
  }

  /**
   * Read-only is the mount's or its superblock's, as /proc/mounts (fixfiles' source) shows it: a
   * mount made read-only on a read-write superblock, as systemd mounts its credentials ramfs (seen
   * on the SELinux VM: fixfiles skipped /run/credentials/*, relabel relabelled them), is skipped.
   */
  @Test
  void aMountReadOnlyOnAReadWriteSuperblockIsReadOnly() {
    String credentials = SELINUX
        + "41 29 0:40 / /run/credentials/systemd-sysctl.service ro,nosuid,nodev,noexec,relatime,nosymfollow"
        + " shared:16 - ramfs ramfs rw,seclabel,mode=700\n"
        + "42 27 254:5 / /srv/ro-bind ro,relatime - ext4 /dev/vda rw,seclabel\n";
    LabelledMounts mounts = LabelledMounts.of(credentials, "/");
    assertEquals(List.of("/", "/srv/my data"), mounts.readWrite());
    assertEquals(List.of("/boot", "/run/credentials/systemd-sysctl.service", "/srv/ro-bind"), mounts.readOnly());
  }

  @Test
  void withoutSeclabelAnywhereTheFilesystemTypesThatHoldXattrLabels() {
    String disabled = SELINUX.replace(",seclabel", "") + "34 27 254:5 / /data rw - ext4 /dev/vdd rw,context=system_u:object_r:tmp_t:s0\n";
    LabelledMounts mounts = LabelledMounts.of(disabled, "/");
    assertEquals(List.of("/", "/srv/my data"), mounts.readWrite(), "ext4 and xfs, not context= mounts");
    assertEquals(List.of("/boot"), mounts.readOnly());
  }

  /**
   * Mount points named alike but for characters above U+00FF are two mounts, each relabelled (as
   * text one byte per char they compared equal, and the second was dropped).
   */
  @Test
  void mountPointsWithNamesBeyondLatin1AreEachKept() {
    String utf8 = "27 1 254:0 / / rw - ext4 /dev/vda rw,seclabel\n"
        + "40 27 254:6 / /mnt/\u30c7\u30fc\u30bf rw - ext4 /dev/vde rw,seclabel\n"
        + "41 27 254:7 / /mnt/\u30c7\u30fc\u30c6 rw - ext4 /dev/vdf rw,seclabel\n";
    // as FixfilesHost reads mountinfo: its bytes decoded with the arguments' charset
    String text = new String(utf8.getBytes(StandardCharsets.UTF_8), PathBytes.charset());
    List<String> mounts = LabelledMounts.of(text, "/").readWrite();
    assertEquals(3, mounts.size(), mounts::toString);
  }

  @Test
  void underARootTheRootStandsForTheMountHoldingItAndOnlyMountsBelowCount() {
    assertEquals(List.of("/srv", "/srv/my data"), LabelledMounts.of(SELINUX, "/srv").readWrite(),
        "/srv stands for /, and /srv/my data is below it");
    assertEquals(List.of("/srv/my data"), LabelledMounts.of(SELINUX, "/srv/my data").readWrite());
    assertEquals(List.of(), LabelledMounts.of(SELINUX, "/run/user").readWrite(), "inside tmpfs: nothing");
    assertEquals(List.of("/boot/efi"), LabelledMounts.of(SELINUX, "/boot/efi").readOnly());
  }
}
