package dev.relabel.cli.autorelabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether the boot relabel may stay enforcing, from a stand-in for the kernel's
 * /sys/fs/selinux/enforce and /proc/self/attr/current. What the real kernel answers (and refuses:
 * in enforcing mode relabel_t must be allowed to read its own context) is checked in the SELinux VM
 * (packaging/vm/test.sh).
 */
class BootEnforcementTest {
  @TempDir Path dir;

  private BootEnforcement enforcement(String enforce, String context) throws Exception {
    Path enforceFile = dir.resolve("enforce");
    Path contextFile = dir.resolve("current");
    if (enforce != null) {
      Files.writeString(enforceFile, enforce);
    }
    if (context != null) {
      Files.writeString(contextFile, context);
    }
    return new BootEnforcement(enforceFile, contextFile);
  }

  @Test
  void theKernelsContextWithoutItsNulAndTheTypeDecides() throws Exception {
    BootEnforcement own = enforcement("1", "system_u:system_r:relabel_t:s0\0");
    assertTrue(own.enforcing());
    assertEquals(Optional.of("system_u:system_r:relabel_t:s0"), own.context());
    assertTrue(own.inOwnDomain());
    BootEnforcement mls = enforcement("1", "system_u:system_r:relabel_t:s0-s0:c0.c1023\0");
    assertTrue(mls.inOwnDomain(), "an MLS range after the type");
    assertFalse(enforcement("1", "system_u:system_r:unconfined_java_t:s0\0").inOwnDomain());
    assertFalse(enforcement("1", "relabel_t\0").inOwnDomain(), "a bare word is no context");
  }

  @Test
  void noSelinuxfsIsNotEnforcingAndAnUnreadableContextIsNotItsOwnDomain() throws Exception {
    assertFalse(enforcement(null, null).enforcing());
    assertFalse(enforcement("0", null).enforcing());
    assertEquals(Optional.empty(), enforcement("1", null).context());
    Files.deleteIfExists(dir.resolve("current"));
    Files.createDirectory(dir.resolve("current")); // reading fails, as a refused read does
    BootEnforcement refused = new BootEnforcement(dir.resolve("enforce"), dir.resolve("current"));
    assertEquals(Optional.empty(), refused.context());
    assertFalse(refused.inOwnDomain());
  }

  @Test
  void theContextIsReadOnceForTheWholeRun() throws Exception {
    BootEnforcement enforcement = enforcement("1", "system_u:system_r:relabel_t:s0\0");
    // What the console says and what is decided come from the one read, whatever the file says after.
    Files.writeString(dir.resolve("current"), "system_u:system_r:unconfined_java_t:s0\0");
    assertEquals(Optional.of("system_u:system_r:relabel_t:s0"), enforcement.context());
    assertTrue(enforcement.inOwnDomain());
    Files.delete(dir.resolve("current"));
    assertEquals(Optional.of("system_u:system_r:relabel_t:s0"), enforcement.context());
  }

  @Test
  void permissiveIsAZeroWritten() throws Exception {
    BootEnforcement enforcement = enforcement("1", null);
    enforcement.setPermissive();
    assertEquals("0", Files.readString(dir.resolve("enforce")));
    assertFalse(enforcement.enforcing());
  }
}
