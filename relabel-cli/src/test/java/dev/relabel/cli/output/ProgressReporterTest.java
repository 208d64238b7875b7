package dev.relabel.cli.output;

import dev.relabel.policy.PathBytes;
import dev.relabel.cli.common.Io;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.report.RelabelReport;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bar's percentage: known when every root walked is the root of its filesystem (estimated
 * from statfs), unknown below one; and whatever the estimate, the end is the exact count.
 */
class ProgressReporterTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private ProgressReporter bar() {
    Io io = new Io(InputStream.nullInputStream(), new ByteArrayOutputStream(), err, StandardCharsets.UTF_8);
    return new ProgressReporter(io, "walk", true, null, false, false, () -> 0);
  }

  private String lastDraw() {
    String[] draws = err.toString(StandardCharsets.UTF_8).split("\r");
    return draws[draws.length - 1];
  }

  private static RelabelReport walked(long entries) {
    return new RelabelReport(entries, 0, 0, List.of(), false, Duration.ZERO, List.of());
  }

  @Test
  void aFilesystemRootGivesAPercentage() {
    try (ProgressReporter progress = bar()) {
      progress.expect(new byte[] {'/'});
      progress.progress(1024);
      progress.refresh();
      // "/" holds far more than 1024 inodes: a percentage under 100, not "?".
      assertTrue(lastDraw().matches("walk +\\d{1,2}% .* 1024/\\d+ entries .*"), lastDraw());
    }
  }

  @Test
  void belowAFilesystemRootThereIsNoPercentageUntilTheEnd() {
    ProgressReporter progress = bar();
    progress.expect(PathBytes.absolute(dir));
    progress.progress(1024);
    progress.refresh();
    assertTrue(lastDraw().startsWith("walk  ? % ") && lastDraw().contains(" 1024/? entries"), lastDraw());
    // The walk's report has the exact count: 1500, not the 1024 ticked.
    progress.completed(walked(1500));
    progress.finish();
    assertTrue(lastDraw().startsWith("walk 100% ") && lastDraw().contains(" 1500/1500 entries"), lastDraw());
    assertTrue(err.toString(StandardCharsets.UTF_8).endsWith("\n"));
  }

  @Test
  void walksAddUpAcrossRoots() {
    ProgressReporter progress = bar();
    progress.expect(PathBytes.absolute(dir));
    progress.progress(1024);
    progress.completed(walked(1100));
    progress.expect(PathBytes.absolute(dir));
    progress.progress(1024);
    progress.completed(walked(2000));
    progress.finish();
    assertTrue(lastDraw().contains(" 3100/3100 entries"), lastDraw());
    // One line, ended once, however many walks.
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(text.length() - 1, text.indexOf('\n'), text);
  }
}
