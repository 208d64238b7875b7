package dev.relabel.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LinkConflicts} on one inode's names: which are reported, against which name, with which
 * label. What setfiles itself says is compared in the CLI's differential tests (hard links and
 * bind mounts against Debian's setfiles) and in the VM.
 */
class LinkConflictsTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final String BIN = "system_u:object_r:bin_t:s0";
  private static final String USR = "system_u:object_r:usr_t:s0";

  @Test
  void eachConflictNamesTheOneReportedBeforeIt() {
    assertEquals(List.of("/t/b and /t/a, using " + ETC, "/t/c and /t/b, using " + ETC, "/t/d and /t/c, using " + ETC),
        reported(List.of("/t/a", "/t/b", "/t/c", "/t/d"), Arrays.asList(ETC, BIN, USR, BIN)));
  }

  @Test
  void aNameWithTheDecidingLabelIsNotReportedAndDoesNotMoveTheChain() {
    assertEquals(List.of("/t/h and /t/g, using " + ETC, "/t/j and /t/h, using " + ETC),
        reported(List.of("/t/g", "/t/h", "/t/i", "/t/j"), Arrays.asList(ETC, USR, ETC, BIN)));
  }

  @Test
  void namesWithoutAContextAreNotCounted() {
    assertEquals(List.of("/t/c and /t/b, using " + BIN),
        reported(List.of("/t/a", "/t/b", "/t/bb", "/t/c"), Arrays.asList(null, BIN, null, ETC)));
  }

  @Test
  void namesThatAgreeOrHaveNoContextReportNothing() {
    assertEquals(List.of(), reported(List.of("/t/a", "/t/b"), Arrays.asList(ETC, ETC)));
    assertEquals(List.of(), reported(List.of("/t/a", "/t/b"), Arrays.asList(null, null)));
  }

  private static List<String> reported(List<String> names, List<String> contexts) {
    List<String> lines = new ArrayList<>();
    List<byte[]> bytes = names.stream().map(n -> n.getBytes(StandardCharsets.ISO_8859_1)).toList();
    LinkConflicts.report(bytes, contexts, new RelabelListener() {
      @Override
      public void conflicted(byte[] other, byte[] previous, String context) {
        lines.add(new String(other, StandardCharsets.ISO_8859_1) + " and "
            + new String(previous, StandardCharsets.ISO_8859_1) + ", using " + context);
      }
    });
    return lines;
  }
}
