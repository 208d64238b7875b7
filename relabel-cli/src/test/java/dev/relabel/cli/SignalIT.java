package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.AttrTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGINT and SIGTERM sent to a real {@code bin/relabel setfiles -v -F} process while it relabels a
 * 100,101-entry tree (it has printed its first {@code Relabeled} lines): it stops, flushes what it
 * printed, says what it did on standard error, and exits 130 or 143. Every entry then has its old
 * label or its new one, byte for byte (read back with getfattr), exactly as many have the new one
 * as the report and the {@code -v} lines say, and running the command again finishes the job.
 *
 * <p>Also {@code restore -M}, which relabels through a bind mount it makes: a signal leaves no
 * mount behind.
 *
 * <p>The time from the signal to the process's exit is measured and printed; the test only fails
 * past a generous bound (the CPU is shared), the recorded figures are in benchmarks/RESULTS.md.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SignalIT {
  private static final int DIRECTORIES = 100;
  private static final int FILES = 1_000;
  private static final int ENTRIES = 1 + DIRECTORIES * (1 + FILES);
  private static final Pattern REPORT = Pattern.compile(
      "relabel: stopped by SIG(INT|TERM): (\\d+) entries checked, (\\d+) relabelled, 0 failed;.*\n");

  @TempDir static Path dir;
  private static Path launcher;
  private static Path tree;
  /** The label every entry has between two tests (each test ends with a run that finishes). */
  private static String current = context("old_t");

  @BeforeAll
  static void bigTree() throws Exception {
    launcher = LauncherScript.launcher("SignalIT");
    AttrTrees.requireTools(false);
    tree = Files.createDirectory(dir.resolve("tree"));
    // touch with many names per call: a few seconds for the whole tree, where one process per file would take minutes.
    AttrTrees.check(List.of("sh", "-c", "cd \"$1\" && for d in $(seq " + DIRECTORIES + "); do mkdir d$d && (cd d$d"
        + " && seq -f f%g " + FILES + " | xargs touch) || exit 1; done", "sh", tree.toString()), dir);
    assertEquals(0, relabel(current).status(), "labelling the tree OLD first");
  }

  private static String context(String type) {
    return "system_u:object_r:" + type + ":s0";
  }

  /** A policy giving every entry of the tree {@code context}. */
  private static Path policy(String context) throws Exception {
    Path policy = dir.resolve("file_contexts-" + context.replace(':', '-'));
    Files.writeString(policy, tree + "(/.*)?\t" + context + "\n");
    return policy;
  }

  /** bin/relabel setfiles -F -T 2 POLICY TREE to its end. */
  private static AttrTrees.Run relabel(String context) throws Exception {
    return AttrTrees.run(List.of(launcher.toString(), "setfiles", "-F", "-T", "2", policy(context).toString(),
        tree.toString()), dir);
  }

  /** How many entries have each label (hex of the raw value, with its NUL, as stored). */
  private static Map<String, Integer> census() throws Exception {
    Map<String, Integer> census = new HashMap<>();
    for (String label : AttrTrees.labels(tree, dir).values()) {
      census.merge(label, 1, Integer::sum);
    }
    return census;
  }


  /** A label no entry has now. */
  private static String other() {
    return current.equals(context("old_t")) ? context("new_t") : context("old_t");
  }

  /** What a signalled run left. */
  private record Stopped(int status, Path out, String err) {}

  /**
   * Starts bin/relabel setfiles -v -F -T THREADS towards {@code fresh}, sends {@code signal}
   * {@code times} times as soon as it has printed, and waits for it to exit.
   */
  private static Stopped signalled(String signal, int times, int threads, String fresh) throws Exception {
    return signalled(signal, times, threads, List.of("setfiles", "-v", "-F", "-T", String.valueOf(threads),
        policy(fresh).toString(), tree.toString()));
  }

  /** As {@link #signalled(String, int, int, String)}, bin/relabel run with {@code arguments}. */
  private static Stopped signalled(String signal, int times, int threads, List<String> arguments) throws Exception {
    Path out = Files.createTempFile(dir, "out-" + signal, "");
    Path err = Files.createTempFile(dir, "err-" + signal, "");
    // perl resets SIGINT to its default before exec'ing the launcher: a shell that started this
    // build in the background would have set it to "ignore", and an ignored signal stays ignored.
    List<String> command = new java.util.ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die",
        launcher.toString()));
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    Process process = builder.start();
    try {
      // Standard output is written in 64 KiB blocks: the first one means hundreds of entries are done.
      while (Files.size(out) == 0) {
        if (!process.isAlive()) {
          fail("relabel ended before it printed anything: status " + process.exitValue() + "\n"
              + Files.readString(err));
        }
        Thread.sleep(5);
      }
      List<String> kill = new java.util.ArrayList<>(List.of("kill", "-s", signal));
      for (int i = 0; i < times; i++) {
        kill.add(String.valueOf(process.pid()));
      }
      AttrTrees.check(kill, dir);
      long sent = System.nanoTime();
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "relabel did not stop within 60 s of SIG" + signal);
      double seconds = (System.nanoTime() - sent) / 1e9;
      // Printed, not bounded (no wall-clock bound in a test): a stop by the watchdog, 5 s on, says so
      // instead of the partial report, which the callers check.
      System.out.printf("SignalIT: SIG%s x%d, -T %d: exited %.3f s after the signal%n", signal, times, threads,
          seconds);
    } finally {
      process.destroyForcibly();
    }
    return new Stopped(process.exitValue(), out, Files.readString(err, StandardCharsets.ISO_8859_1));
  }

  /** The labels after a stopped run: only {@code old} and {@code fresh}; returns how many have fresh. */
  private static long onlyOldOrNew(String old, String fresh) throws Exception {
    Map<String, Integer> after = new HashMap<>(census());
    int renamed = after.getOrDefault(AttrTrees.hex(fresh), 0);
    after.remove(AttrTrees.hex(old));
    after.remove(AttrTrees.hex(fresh));
    assertEquals(Map.of(), after, "entries with neither the old label nor the new one");
    return renamed;
  }

  /** Runs to the end towards {@code fresh}: every entry then has it. */
  private static void finish(String fresh) throws Exception {
    AttrTrees.Run again = relabel(fresh);
    assertEquals(0, again.status(), again::toString);
    assertEquals(Map.of(AttrTrees.hex(fresh), ENTRIES), census(), "running again finishes the job");
    current = fresh;
  }

  @ParameterizedTest(name = "SIG{0}, -T {1}")
  @CsvSource({"INT,1,130", "TERM,2,143"})
  void aSignalStopsTheRunWithAPartialReportAndNoTornLabel(String signal, int threads, int status) throws Exception {
    String old = current;
    String fresh = other();
    assertEquals(Map.of(AttrTrees.hex(old), ENTRIES), census(), "every entry starts with the old label");
    Stopped stopped = signalled(signal, 1, threads, fresh);
    String errText = stopped.err();
    assertEquals(status, stopped.status(), errText);
    Matcher report = REPORT.matcher(errText);
    assertTrue(report.matches(), "standard error should be the partial report alone: " + errText);
    assertEquals(signal, report.group(1));
    long checked = Long.parseLong(report.group(2));
    long relabelled = Long.parseLong(report.group(3));
    long lines = Files.readString(stopped.out(), StandardCharsets.ISO_8859_1).lines()
        .filter(line -> line.startsWith("Relabeled ") && line.endsWith(" from " + old + " to " + fresh)).count();
    assertEquals(relabelled, lines, "one -v line per label written, each flushed before the exit");
    assertEquals(checked, relabelled, "with -F every entry checked needs a new label");
    assertTrue(relabelled > 0 && relabelled < ENTRIES, "the signal should have stopped the run part way: "
        + relabelled + " of " + ENTRIES);

    assertEquals(relabelled, onlyOldOrNew(old, fresh), "every label the report counts was written, and no other");
    finish(fresh);
  }

  /**
   * Two SIGINTs at once: the second halts the JVM before the report (the impatient user's way
   * out) — or, delivered before the first was, merges with it, as pending signals do. Either way
   * status 130, and no entry with anything but its old label or its new one.
   */
  @org.junit.jupiter.api.Test
  void aSecondSignalExitsAtOnceAndStillTearsNoLabel() throws Exception {
    String old = current;
    String fresh = other();
    Stopped stopped = signalled("INT", 2, 2, fresh);
    assertEquals(130, stopped.status(), stopped.err());
    assertTrue(stopped.err().isEmpty() || REPORT.matcher(stopped.err()).matches(), stopped.err());
    System.out.println("SignalIT: two SIGINTs: " + (stopped.err().isEmpty() ? "the second halted before the report"
        : "one report (the signals merged, or the first finished first)"));
    long relabelled = onlyOldOrNew(old, fresh);
    assertTrue(relabelled < ENTRIES, "stopped part way: " + relabelled);
    finish(fresh);
  }

  /**
   * fixfiles -M (README) stopped by SIGTERM while it relabels the tree through a bind mount of it,
   * made in the tree's /tmp (the tree is the system root here, {@code --root}): the partial report,
   * and neither the bind mount nor the directory made for it left behind for the clean-up of /tmp
   * or an admin to find. The labels the run wrote are the policy's; the tree is put back after.
   */
  @org.junit.jupiter.api.Test
  void sigtermStopsARelabelThroughABindMountAndTakesTheMountOff() throws Exception {
    Path tmp = Files.createDirectory(tree.resolve("tmp"));
    try {
      Stopped stopped = signalled("TERM", 1, 1, List.of("restore", "-M", "-v", "-F", "-T", "1", "--root",
          tree.toString()));
      assertEquals(143, stopped.status(), stopped.err());
      Matcher report = REPORT.matcher(stopped.err());
      assertTrue(report.matches(), "standard error should be the partial report alone: " + stopped.err());
      assertTrue(Long.parseLong(report.group(3)) < ENTRIES, "stopped part way: " + stopped.err());
      String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
      assertTrue(!mounts.contains(tree.toString()), "the bind mount is taken off: " + mounts);
      try (java.util.stream.Stream<Path> left = Files.list(tmp)) {
        assertEquals(List.of(), left.toList(), "the directory made for the bind mount is removed");
      }
      Files.delete(tmp);
    } finally {
      // Only where an assertion above failed: what the run left, taken off and removed.
      AttrTrees.run(List.of("sh", "-c", "grep -o \" $1/[^ ]*\" /proc/self/mountinfo | sort -r | xargs -r umount -l;"
          + " rm -rf \"$1\"", "sh", tmp.toString()), dir);
    }
    finish(current);
  }

  /**
   * A thread blocked in a system call that no interrupt ends (here, the list read from a pipe
   * nobody closes: setfiles -s) does not keep the process alive: SIGTERM ends it a few seconds
   * later ({@code SignalStop}'s watchdog) with status 143, saying why, where it used to run until
   * the pipe closed.
   */
  @org.junit.jupiter.api.Test
  void sigtermEndsARunBlockedReadingAPipe() throws Exception {
    Path err = Files.createTempFile(dir, "err-blocked", "");
    ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "setfiles", "-s", policy(current).toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    Process process = builder.start(); // its standard input: a pipe this test holds open
    try {
      // Blocked in the read: a thread of the process waits in pipe_read (anon_pipe_read on newer kernels: its wait channel).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!LauncherScript.readingAPipe(process.pid())) {
        assertTrue(process.isAlive() && System.nanoTime() < deadline, "relabel never blocked reading standard input: "
            + Files.readString(err));
        Thread.sleep(20);
      }
      AttrTrees.check(List.of("kill", "-s", "TERM", String.valueOf(process.pid())), dir);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "relabel did not end within 60 s of SIGTERM");
      assertEquals(143, process.exitValue());
      assertEquals("relabel: stopped by SIGTERM, still blocked in a system call 5 s later: exiting without a report;"
          + " every entry has its old label or its new one; run the command again to finish\n", Files.readString(err));
    } finally {
      process.getOutputStream().close();
      process.destroyForcibly();
    }
  }
}
