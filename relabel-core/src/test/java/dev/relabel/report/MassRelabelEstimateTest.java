package dev.relabel.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link FilesystemProgress#massRelabelEstimate(String, java.util.function.ToLongFunction)} on a
 * /proc/mounts text: which mounts count and how. What setfiles prints with it is compared with
 * setfiles itself on a kernel with SELinux, in the VM tests (`relabel relabel` against fixfiles).
 */
class MassRelabelEstimateTest {
  @Test
  void seclabelMountsCountTheirInodesAsTheFileSpellsThemPlusFivePercent() {
    String mounts = """
        /dev/vda / ext4 rw,seclabel,relatime 0 0
        proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
        tmpfs /run tmpfs rw,seclabel,nosuid,nodev,size=1g 0 0
        tmpfs /mnt/a\\040b tmpfs rw,seclabel 0 0
        /dev/vdb /srv xfs rw,relatime,seclabel 0 0
        """;
    Map<String, Long> inodes = Map.of("/", 19000L, "/proc", 500L, "/run", 700L, "/srv", 301L);
    List<String> asked = new ArrayList<>();
    long estimate = FilesystemProgress.massRelabelEstimate(mounts, point -> {
      String name = new String(point, StandardCharsets.ISO_8859_1);
      asked.add(name);
      return inodes.getOrDefault(name, 0L); // "/mnt/a\040b" does not exist: statvfs fails
    });
    assertEquals(List.of("/", "/run", "/mnt/a\\040b", "/srv"), asked, "the seclabel mounts, escapes left in");
    assertEquals((long) (20001 * 1.05), estimate); // 21001.05, truncated
    assertEquals(21001, estimate);
  }

  @Test
  void noSeclabelMountNoEstimate() {
    assertEquals(0, FilesystemProgress.massRelabelEstimate("/dev/vda / ext4 rw,relatime 0 0\n", point -> 1000));
  }
}
