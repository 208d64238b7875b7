package dev.relabel.cli.lookup;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.Cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relabel plan} on real files: its summary, that it writes nothing, and its exit statuses. */
class PlanCommandTest {
  @TempDir Path dir;
  private Path tree;
  private Path policy;

  @BeforeEach
  void layout() throws Exception {
    tree = Files.createDirectory(dir.resolve("tree"));
    for (String file : List.of("etc/a.conf", "etc/b.conf", "etc/c.conf", "var/log/syslog", "usr/bin/ls")) {
      Files.createDirectories(tree.resolve(file).getParent());
      Files.writeString(tree.resolve(file), "");
    }
    policy = writePolicy("policy", "system_u:object_r:var_log_t:s0");
  }

  private Path writePolicy(String name, String varLog) throws Exception {
    Path file = Files.createDirectories(dir.resolve(name)).resolve("file_contexts");
    Files.writeString(file, String.join("\n",
        "/.* system_u:object_r:default_t:s0",
        "/etc(/.*)? system_u:object_r:etc_t:s0",
        "/var/log(/.*)? " + varLog,
        "/usr/bin(/.*)? system_u:object_r:bin_t:s0", ""));
    return file;
  }

  private Cli.Result plan(String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("plan", "-f", policy.toString(), "-r", tree.toString()));
    args.addAll(List.of(extra));
    args.add(tree.toString());
    return Cli.run(args.toArray(String[]::new));
  }

  @Test
  void anUnlabelledTreeIsPlannedByDirectoryAndTypeAndNothingIsWritten() throws Exception {
    Cli.Result result = plan();
    assertEquals(ExitStatus.PLAN_CHANGES, result.status(), result::toString);
    String out = result.outLatin1();
    assertTrue(out.contains("  11 of 11 entries would be relabelled\n"), out);
    assertTrue(out.contains(line(3, tree.resolve("etc").toString())), out);
    assertTrue(out.contains(line(3, "(unlabeled) -> default_t")), out);
    assertTrue(out.contains(line(4, "(unlabeled) -> etc_t")), out);
    assertTrue(out.contains("a relabel would take about "), out);
    assertEquals("", result.err());
    assertEquals(null, DiskLabel.of(tree.resolve("etc/a.conf")));
  }

  @Test
  void aLabelledTreeNeedsNothingAndAnUpdateOnlyWhatItChanges() throws Exception {
    Cli.Result labelled = Cli.run("setfiles", "-r", tree.toString(), policy.toString(), tree.toString());
    assertEquals(0, labelled.status(), labelled::toString);
    Cli.Result nothing = plan();
    assertEquals(0, nothing.status(), nothing::toString);
    assertTrue(nothing.outLatin1().contains("  0 of 11 entries would be relabelled\n"), nothing::toString);

    // The current policy gives /var/log another type than the previous one did.
    Path previous = policy;
    policy = writePolicy("updated", "system_u:object_r:var_log_new_t:s0");
    Cli.Result update = plan("-C", previous.toString(), "--top", "1");
    assertEquals(ExitStatus.PLAN_CHANGES, update.status(), update::toString);
    String out = update.outLatin1();
    // Only the root and /var's way to /var/log are walked: 6 entries decided, 2 changes.
    assertTrue(out.contains("  2 of 6 entries would be relabelled\n"), out);
    assertTrue(out.contains("By type (old -> new):\n" + line(2, "var_log_t -> var_log_new_t")), out);
    assertTrue(out.contains("By directory (top 1 of 2):\n"), out);
  }

  @Test
  void noPlanIsStatusTwo() throws Exception {
    Files.writeString(policy, "/etc(/.*)? not_a_context\n");
    Cli.Result bad = plan();
    assertEquals(ExitStatus.PLAN_ERROR, bad.status(), bad::toString);
    assertTrue(bad.err().startsWith("relabel: " + policy + ":1: "), bad::toString);
    assertEquals(ExitStatus.PLAN_ERROR, Cli.run("plan", "--no-such-option", tree.toString()).status());
  }

  private static String line(long count, String what) {
    return String.format(java.util.Locale.ROOT, "  %,10d  %s%n", count, what);
  }

  /** The label on disk, through the attr tools' view of the file (null: none). */
  private static final class DiskLabel {
    static String of(Path p) throws Exception {
      return dev.relabel.fixtures.AttrTrees.label(p, p.getParent());
    }
  }
}
