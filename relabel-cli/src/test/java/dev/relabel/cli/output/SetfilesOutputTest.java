package dev.relabel.cli.output;

import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.Io;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.report.RelabelReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How the engine's reports become setfiles' lines and exit status. The failures that a root-run
 * test cannot provoke (a directory it cannot read, a label it may not write) were checked against
 * setfiles run as nobody: "Could not read DIR: Permission denied." leaves the status 0, "Could not
 * set context for PATH:  Operation not permitted" makes it 255 (1 with -C).
 */
class SetfilesOutputTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Io io = new Io(new ByteArrayInputStream(new byte[0]), out, err, StandardCharsets.UTF_8);

  private static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }

  private String err() {
    return err.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void unreadableDirectoriesAreReportedButAreNoError() {
    SetfilesOutput output = new SetfilesOutput(io, StandardCharsets.UTF_8, false);
    output.failed(new RelabelReport.Failure(bytes("/srv/locked"), 13, "openat: EACCES (Permission denied)"));
    output.failed(new RelabelReport.Failure(bytes("/srv/gone"), 2, "getdents64: ENOENT (No such file or directory)"));
    output.failed(new RelabelReport.Failure(bytes("/srv/x"), 13, "statx: EACCES (Permission denied)"));
    assertEquals("relabel: Could not read /srv/locked: Permission denied.\n"
        + "relabel: Could not read /srv/gone: No such file or directory.\n"
        + "relabel: Could not stat /srv/x: Permission denied.\n", err());
    assertFalse(output.hasEntryErrors());
    assertFalse(output.hasFatal());
  }

  @Test
  void labelFailuresAreEntryErrors() {
    SetfilesOutput output = new SetfilesOutput(io, StandardCharsets.UTF_8, true);
    output.failed(new RelabelReport.Failure(bytes("/srv/f\u00ff"), 1, "setxattrat: EPERM (Operation not permitted)"));
    output.failed(new RelabelReport.Failure(bytes("/srv/g"), 0, "current label 'garbage' is not a context"));
    output.failed(new RelabelReport.Failure(bytes("/srv/h"), 95, "getxattr: ENOTSUP (Operation not supported)"));
    assertEquals("relabel: Could not set context for /srv/f\u00ff:  Operation not permitted\n"
        + "relabel: Could not set context for /srv/g:  Invalid argument\n"
        + "relabel: Could not set context for /srv/h:  Operation not supported\n", err());
    assertTrue(output.hasEntryErrors());
    assertFalse(output.hasFatal());
  }

  @Test
  void internalErrorsAreFatal() {
    SetfilesOutput output = new SetfilesOutput(io, StandardCharsets.UTF_8, false);
    output.failed(new RelabelReport.Failure(bytes("/srv"), 0, "internal error: java.lang.IllegalStateException"));
    assertTrue(output.hasFatal());
  }

  @Test
  void changesAreShownOnlyWithVerboseAndWarningsWhereSetfilesShowsThem() {
    SetfilesOutput quiet = new SetfilesOutput(io, StandardCharsets.UTF_8, false);
    quiet.changed(new RelabelReport.Change(bytes("/a"), null, "u:r:t:s0", true));
    quiet.keptCustomized(bytes("/a"), "u:r:public_content_t:s0");
    quiet.conflicted(bytes("/b"), bytes("/a"), "u:r:t:s0");
    quiet.flush();
    assertEquals("", out.toString(StandardCharsets.ISO_8859_1));
    assertEquals("relabel: conflicting specifications for /b and /a, using u:r:t:s0.\n", err());

    SetfilesOutput verbose = new SetfilesOutput(io, StandardCharsets.UTF_8, true);
    verbose.changed(new RelabelReport.Change(bytes("/a\u00e9"), null, "u:r:t:s0", true));
    verbose.changed(new RelabelReport.Change(bytes("/b"), "u:r:x:s0", "u:r:t:s0", false));
    verbose.keptCustomized(bytes("/a"), "u:r:public_content_t:s0");
    verbose.flush();
    assertEquals("Relabeled /a\u00e9 from (null) to u:r:t:s0\nWould relabel /b from u:r:x:s0 to u:r:t:s0\n"
        + "/a not reset as customized by admin to u:r:public_content_t:s0\n", out.toString(StandardCharsets.ISO_8859_1));
  }

  @Test
  void linesFromManyThreadsNeverInterleave() throws Exception {
    SetfilesOutput output = new SetfilesOutput(io, StandardCharsets.UTF_8, true);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<String> expected = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int thread = t;
      for (int i = 0; i < 2_000; i++) {
        expected.add("Relabeled /t" + thread + "/" + i + " from (null) to u:r:t:s0");
      }
      pool.execute(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 2_000; i++) {
          output.changed(new RelabelReport.Change(bytes("/t" + thread + "/" + i), null, "u:r:t:s0", true));
        }
      });
    }
    start.countDown();
    pool.shutdown();
    assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
    output.flush();
    List<String> lines = new ArrayList<>(out.toString(StandardCharsets.ISO_8859_1).lines().toList());
    lines.sort(null);
    expected.sort(null);
    assertEquals(expected, lines);
  }
}
