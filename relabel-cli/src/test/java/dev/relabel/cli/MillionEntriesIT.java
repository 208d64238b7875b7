package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory does not grow with the tree: {@code bin/relabel setfiles -F -T 2} under {@code -Xmx256m}
 * labels a generated tree of 1,000,201 entries (1,000 directories of 999 files, 200 hard links
 * across directories whose specs differ, so hard-link tracking is on and finds conflicts), and
 * its peak RSS ({@code VmHWM} of the JVM, sampled from /proc until it exits) is printed. Then every
 * entry has one of the policy's two labels (getfattr), each conflicting inode was reported once,
 * and a dry run finds nothing left to change.
 *
 * <p>About 80 s here (most of it creating and deleting the files), so CI runs the full million;
 * {@code -Drelabel.memory.directories=N} makes it smaller. Figures: benchmarks/RESULTS.md.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MillionEntriesIT {
  private static final int DIRECTORIES = Integer.getInteger("relabel.memory.directories", 1_000);
  private static final int FILES = 999;
  /** Hard links: dN/f1 also named d(N+500)/hlN, for even N up to this. */
  private static final int LINKED_UP_TO = 400;
  private static final String NEW = "system_u:object_r:new_t:s0";
  private static final String OTHER = "system_u:object_r:other_t:s0";

  @TempDir static Path dir;
  private static Path launcher;
  private static Path tree;
  private static int links;
  private static int conflicts;

  @BeforeAll
  static void generate() throws Exception {
    launcher = LauncherScript.launcher("MillionEntriesIT");
    AttrTrees.requireTools(false);
    tree = dir.resolve("tree");
    AttrTrees.check(List.of("sh", "-c", "mkdir \"$1\" && cd \"$1\" && for d in $(seq " + DIRECTORIES + "); do"
        + " mkdir d$d && (cd d$d && seq -f f%g " + FILES + " | xargs touch) || exit 1; done", "sh", tree.toString()),
        dir);
    StringBuilder script = new StringBuilder("cd \"$1\"");
    for (int n = 2; n <= LINKED_UP_TO && n + 500 <= DIRECTORIES; n += 2) {
      script.append(" && ln d").append(n).append("/f1 d").append(n + 500).append("/hl").append(n);
      links++;
      if (other(n) != other(n + 500)) {
        conflicts++;
      }
    }
    AttrTrees.check(List.of("sh", "-c", script.toString(), "sh", tree.toString()), dir);
  }

  /** Whether directory dN gets OTHER: the policy's second line, {@code d1[0-9]*}. */
  private static boolean other(int n) {
    return String.valueOf(n).matches("1[0-9]*");
  }

  /** Deleting a million files takes a while; do it here rather than leave it to JUnit's slower walk. */
  @AfterAll
  static void remove() throws Exception {
    if (tree != null) {
      AttrTrees.check(List.of("rm", "-rf", tree.toString()), dir);
    }
  }

  @Test
  void aMillionEntriesUnder256MegabytesOfHeapWithHardLinksTracked() throws Exception {
    Path policy = dir.resolve("file_contexts");
    Files.writeString(policy, tree + "(/.*)?\t" + NEW + "\n" + tree + "/d1[0-9]*(/.*)?\t" + OTHER + "\n");
    long entries = 1 + DIRECTORIES * (1L + FILES) + links;

    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "setfiles", "-F", "-T", "2", policy.toString(),
        tree.toString()).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("RELABEL_JAVA_OPTS", "-Xmx256m");
    long start = System.nanoTime();
    Process process = builder.start();
    long peakKb = 0;
    Path status = Path.of("/proc", String.valueOf(process.pid()), "status");
    while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
      peakKb = Math.max(peakKb, highWaterMarkKb(status));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String errText = Files.readString(err, StandardCharsets.ISO_8859_1);
    System.out.printf("MillionEntriesIT: %,d entries, -Xmx256m -T 2 -F: %.1f s, peak RSS (VmHWM) %,d KB%n", entries,
        seconds, peakKb);
    assertEquals(0, process.exitValue(), errText);

    // Each inode whose two names want different labels is reported once; nothing else is said.
    List<String> lines = errText.lines().toList();
    assertEquals(conflicts, lines.size(), errText);
    for (String line : lines) {
      assertTrue(line.startsWith("relabel: conflicting specifications for " + tree + "/d"), line);
    }
    assertTrue(peakKb > 0 && peakKb < 512 * 1024, "peak RSS " + peakKb + " KB");

    // getfattr, not the engine, counts the labels: every entry has one of the policy's two.
    String census = AttrTrees.check(List.of("sh", "-c", "getfattr -R -h -n security.selinux --absolute-names \"$1\""
        + " 2>/dev/null | grep '^security.selinux=' | sort | uniq -c", "sh", tree.toString()), dir);
    Map<String, Long> counts = new TreeMap<>();
    for (String line : census.strip().split("\n")) {
      String[] parts = line.strip().split(" ", 2);
      counts.put(parts[1], Long.parseLong(parts[0]));
    }
    assertEquals(java.util.Set.of("security.selinux=\"" + NEW + "\"", "security.selinux=\"" + OTHER + "\""),
        counts.keySet(), census);
    assertEquals(entries, counts.values().stream().mapToLong(Long::longValue).sum(), census);

    AttrTrees.Run check = AttrTrees.run(List.of(launcher.toString(), "setfiles", "-n", "-v", "-T", "2",
        policy.toString(), tree.toString()), dir);
    assertEquals(0, check.status(), check::toString);
    // Nothing left to change, but for a conflicting inode whose other name the dry run met first
    // (at -T 2 which name comes first varies, in setfiles too).
    List<String> changes = check.out().lines().toList();
    assertTrue(changes.size() <= conflicts, check::toString);
    for (String change : changes) {
      assertTrue(change.matches("Would relabel " + java.util.regex.Pattern.quote(tree.toString())
          + "/d[0-9]+/(f1|hl[0-9]+) from .*"), change);
    }
  }

  private static long highWaterMarkKb(Path status) {
    try {
      for (String line : Files.readAllLines(status, StandardCharsets.ISO_8859_1)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (java.io.IOException | NumberFormatException e) {
      // gone between waitFor and the read: the last sample stands
    }
    return 0;
  }
}
