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

  private static byte[] bytes(String path) {
    return path.getBytes(StandardCharsets.US_ASCII);
  }

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private String printed() {
    return out.toString(StandardCharsets.US_ASCII);
  }

  @Test
  void aRelabelOfSlashCountsInPercentOfTheEstimate() {
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> 4096);
    text.massRelabel();
    text.expect();
    text.update(2048);
    assertEquals("\r25.0%\r50.0%", printed());
    // More entries than the estimate: 100.0 from there on.
    text.walked(5200, SLASH);
    text.end(5200);
    assertEquals("\r25.0%\r50.0%\r75.0%\r100.0%\r100.0%\r/ 100.0%\n\n", printed());
  }

  @Test
  void withoutAnEstimateARelabelOfSlashCountsThousands() {
    // libselinux has none where SELinux is not enabled, or with -m.
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> 0);
    text.massRelabel();
    text.expect();
    text.walked(2100, SLASH);
    text.end(2100);
    assertEquals("\r1k\r2k\r/ 100.0%\n\n", printed());
  }

  @Test
  void withoutAMassRelabelItCountsThousandsAndAsksForNoEstimate() {
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> {
      throw new AssertionError("the mount table was read for a relabel of /srv");
    });
    text.expect();
    text.walked(3000, bytes("/srv"));
    text.end(3000);
    assertEquals("\r1k\r2k\n", printed());
  }

  @Test
  void aMassRelabelClosesEachPathWithItsOwnLine() {
    // setfiles -p FC /srv/ / : "/" among the arguments makes every path's walk a mass relabel,
    // each ended by its name as given, the count going on across them; one newline at the end.
    SetfilesProgressText text = new SetfilesProgressText(out, true, () -> 8192);
    text.massRelabel();
    text.expect();
    text.walked(1100, bytes("/srv/"));
    text.expect();
    text.walked(2100, SLASH);
    text.end(2100);
    assertEquals("\r12.5%\r/srv/ 100.0%\n\r25.0%\r/ 100.0%\n\n", printed());
  }

  @Test
  void percentagesAreRoundedAsCPrintsLibselinuxsFloat() {
    // What glibc's printf("%-.1f", (double) pc) printed for these, pc being libselinux's float:
    // an exact tie goes to the even digit, and the float's bits, not the double's, decide.
    // Java's String.format("%.1f") of the double prints 6.3 and 77.9.
    assertEquals("6.2", SetfilesProgressText.percent(2048, 32768));
    assertEquals("77.8", SetfilesProgressText.percent(20480, 26307));
    assertEquals("0.1", SetfilesProgressText.percent(1024, 1_000_000));
    assertEquals("100.0", SetfilesProgressText.percent(5000, 4096));
  }

  @Test
  void eachRunCountsFromZeroAndAFixfilesVerbPrintsNothingWithoutOne() {
    SetfilesProgressText text = new SetfilesProgressText(out, false, () -> 0);
    text.expect();
    text.end(1500);
    text.expect();
    text.update(2600); // 1100 of its own
    text.end(2600);
    assertEquals("\r1k\n\r1k\n", printed());
    assertFalse(text.open(), "no run left to end");
    // setfiles' one run begins with the command: its newline even when no path was walked.
    assertTrue(new SetfilesProgressText(out, true, () -> 0).open());
  }
}
