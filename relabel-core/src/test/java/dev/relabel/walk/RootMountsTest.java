package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.policy.PathBytes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Cycles found by a root's real path, spelled as each walk names its entries: the setfiles walk
 * joins a name to a root given with a trailing slash with a second one (as selinux_restorecon's
 * fts shows it), chcon's fts does not.
 */
class RootMountsTest {
  private static String spelled(String cycle, String given, String realRoot, boolean chcon) {
    Set<String> spelled = RootMounts.spelled(Set.of(cycle), PathBytes.fromLatin1(given), realRoot,
        chcon ? ChconRun::join : Walk::join);
    assertEquals(1, spelled.size());
    return spelled.iterator().next();
  }

  @Test
  void aCycleIsSpelledFromTheRootAsGiven() {
    assertEquals("/mnt", spelled("/mnt", "/", "/", false));
    assertEquals("/mnt", spelled("/mnt", "/", "/", true));
    assertEquals("srv/a/x", spelled("/data/srv/a/x", "srv", "/data/srv", false), "a relative root, its symlink resolved");
    assertEquals("srv/a/x", spelled("/data/srv/a/x", "srv", "/data/srv", true));
    assertEquals("srv//a/x", spelled("/data/srv/a/x", "srv/", "/data/srv", false));
    assertEquals("srv/a/x", spelled("/data/srv/a/x", "srv/", "/data/srv", true));
  }

  @Test
  void noneStaysNone() {
    assertEquals(Set.of(), RootMounts.spelled(Set.of(), new byte[] {'/'}, "/", Walk::join));
  }
}
