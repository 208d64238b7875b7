package dev.relabel.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * setfiles' -p text, run by run. What setfiles prints for a tree is compared with setfiles itself
 * by ProgressTest and FixfilesVerbsTest, and for a relabel of / (percentages) by the SELinux VM
 * tests; here the percentages' arithmetic and the runs' boundaries, on counts chosen to show them.
 */
class SetfilesProgressTextTest {
  private static final byte[] SLASH = {'/'};

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private String printed() {
    return out.toString(StandardCharsets.US_ASCII);
  }

  @Test
  void aRelabelOfSlashCountsInPercentOfTheEstimate() {
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> 4096);
    text.expect(SLASH);
    text.update(2048);
    assertEquals("\r25.0%\r50.0%", printed());
    // More entries than the estimate: 100.0 from there on.
    text.end(5200);
    assertEquals("\r25.0%\r50.0%\r75.0%\r100.0%\r100.0%\r/ 100.0%\n\n", printed());
  }

  @Test
  void withoutAnEstimateARelabelOfSlashCountsThousands() {
    // libselinux has none where SELinux is not enabled, or with -m.
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> 0);
    text.expect(SLASH);
    text.end(2100);
    assertEquals("\r1k\r2k\r/ 100.0%\n\n", printed());
  }

  @Test
  void belowSlashItCountsThousandsAndAsksForNoEstimate() {
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> {
      throw new AssertionError("the mount table was read for a relabel of /srv");
    });
    text.expect("/srv".getBytes(StandardCharsets.US_ASCII));
    text.end(3000);
    assertEquals("\r1k\r2k\n", printed());
  }

  @Test
  void eachRunCountsFromZeroAndAFixfilesVerbPrintsNothingWithoutOne() {
    SetfilesProgressText text = new SetfilesProgressText(out, false, () -> 0);
    text.expect("/a".getBytes(StandardCharsets.US_ASCII));
    text.end(1500);
    text.expect("/b".getBytes(StandardCharsets.US_ASCII));
    text.update(2600); // 1100 of its own
    text.end(2600);
    assertEquals("\r1k\n\r1k\n", printed());
    assertFalse(text.open(), "no run left to end");
    // setfiles' one run begins with the command: its newline even when no path was walked.
    assertTrue(new SetfilesProgressText(out, true, () -> 0).open());
  }
}
