package dev.relabel.cli.setfiles;

import dev.relabel.cli.RealRestorecon;
import dev.relabel.cli.Trees;
import dev.relabel.cli.output.SetfilesOutput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import dev.relabel.fixtures.oracle.Oracles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code relabel setfiles} against Debian's {@code setfiles} on identical copies of real trees
 * (/etc, /usr/sbin, /usr/lib/systemd, plus a name that is not UTF-8 and a pair of hard links)
 * whose labels were scrambled: wrong types, other users and ranges, a customizable type, labels
 * that are not contexts, no label at all. Both run with {@code -r COPY ... SPEC COPY}, first
 * {@code -n -v}, then {@code -v}; the exit statuses, the sets of output lines (each copy's path
 * replaced by ROOT, setfiles' name by PROG) and finally every entry's label must be identical.
 */
public class SetfilesCliDifferentialTest {
  private static final List<String> SOURCES = List.of("/etc", "/usr/sbin", "/usr/lib/systemd");
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "system_u:object_r:public_content_t:s0",
    "unconfined_u:object_r:user_home_t:s0",
    "system_u:object_r:bin_t:s0",
  };

  @TempDir
  static Path base;
  private static Path template;
  private static String scrambleDump;

  @BeforeAll
  static void buildScrambledTree() throws Exception {
    AttrTrees.requireTools(true);
    template = base.resolve("template");
    for (String source : SOURCES) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    AttrTrees.touchRaw(template.resolve("etc"), "caf\u00e9-\u00ff.conf", base);
    Path linked = Files.writeString(template.resolve("usr/sbin/relabel-linked"), "");
    Files.createLink(template.resolve("usr/sbin/relabel-linked-too"), linked);

    List<String> entries = AttrTrees.entries(template, base);
    assertTrue(entries.size() > 1_500, "tree too small: " + entries.size());
    Random random = new Random(20261130);
    Map<String, String> scramble = new java.util.LinkedHashMap<>();
    for (String relative : entries) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      if (random.nextInt(300) == 0) {
        scramble.put(relative, "not-a-context");
      } else if (choice < SCRAMBLED.length) {
        scramble.put(relative, SCRAMBLED[choice]);
      } // else no label at all
    }
    // A wrong type that is not customizable, whatever the seeded scramble gives the entries before
    // it (this machine's /etc, whose packages vary): the raw name must be relabelled.
    scramble.put("etc/caf\u00e9-\u00ff.conf", "system_u:object_r:bin_t:s0");
    scrambleDump = AttrTrees.restoreDump(scramble);
  }

  /** Removes the copies first: JUnit warns about every symlink out of a @TempDir it deletes. */
  @AfterAll
  static void removeCopies() throws Exception {
    if (base != null && Files.isDirectory(base)) {
      AttrTrees.run(List.of("sh", "-c", "rm -rf -- \"$1\"/*", "sh", base.toString()), base.getParent());
    }
  }

  private static Path scrambledCopy(String name) throws Exception {
    return AttrTrees.labelledCopy(template, base.resolve(name), scrambleDump, base);
  }

  @ParameterizedTest(name = "-T {0}, -F {1}")
  @CsvSource({"1,false", "2,false", "1,true", "2,true"})
  void sameOutputAndLabelsAsSetfiles(int threads, boolean force) throws Exception {
    Path reference = scrambledCopy("setfiles-" + threads + "-" + force);
    Path ours = scrambledCopy("relabel-" + threads + "-" + force);
    Map<String, String> before = AttrTrees.labels(reference, base);
    assertEquals(before, AttrTrees.labels(ours, base), "copies must start identical");
    assertTrue(before.containsValue(AttrTrees.hexWithoutNul("not-a-context")), "the scramble should hold a label that is no context");

    // -n -v: what would change, and nothing changed.
    Run setfilesDry = setfiles(reference, threads, force, "-n", "-v");
    Run oursDry = relabel(ours, threads, force, "-n", "-v");
    assertSameRun(setfilesDry, reference, oursDry, ours);
    if (threads == 1) {
      Trees.assertSameOrder(setfilesDry, reference, oursDry, ours, "/usr/sbin/relabel-linked");
    }
    assertTrue(setfilesDry.outLines().size() > 1_000, "the scramble should have needed many changes");
    assertTrue(setfilesDry.out().contains("\u00e9-\u00ff.conf from "), "the raw name should be relabelled");
    if (force) {
      assertEquals(0, setfilesDry.status(), setfilesDry::toString);
    } else {
      // Without -F: customizable types kept, and labels that are no context are errors (status 255).
      assertEquals(255, setfilesDry.status());
      assertTrue(setfilesDry.out().contains(" not reset as customized by admin to "), setfilesDry::toString);
      assertTrue(setfilesDry.err().contains(":  Invalid argument\n"), setfilesDry::toString);
    }
    assertEquals(before, AttrTrees.labels(reference, base));
    assertEquals(before, AttrTrees.labels(ours, base), "-n must change nothing");

    // -v: the changes made.
    Run setfilesRun = setfiles(reference, threads, force, "-v");
    Run oursRun = relabel(ours, threads, force, "-v");
    assertSameRun(setfilesRun, reference, oursRun, ours);
    Map<String, String> expected = AttrTrees.labels(reference, base);
    Map<String, String> actual = AttrTrees.labels(ours, base);
    assertEquals(expected.keySet(), actual.keySet());
    List<String> differences = new ArrayList<>();
    for (String path : expected.keySet()) {
      if (!expected.get(path).equals(actual.get(path))) {
        differences.add(path + ": setfiles " + expected.get(path) + ", ours " + actual.get(path));
      }
    }
    assertEquals(List.of(), differences.subList(0, Math.min(30, differences.size())),
        differences.size() + " of " + expected.size() + " entries differ");
  }

  private static Run setfiles(Path root, int threads, boolean force, String... flags) throws Exception {
    List<String> command = Trees.list(AttrTrees.SETFILES.toString());
    command.addAll(List.of(flags));
    command.addAll(common(root, threads, force));
    return AttrTrees.run(command, base);
  }

  private static Run relabel(Path root, int threads, boolean force, String... flags) {
    List<String> command = Trees.list("setfiles");
    command.addAll(List.of(flags));
    command.addAll(common(root, threads, force));
    return Trees.relabel(command);
  }

  private static List<String> common(Path root, int threads, boolean force) {
    List<String> args = Trees.list("-T", String.valueOf(threads));
    if (force) {
      args.add("-F");
    }
    args.addAll(List.of("-r", root.toString(), Oracles.DEBIAN_FILE_CONTEXTS.toString(), root.toString()));
    return args;
  }

  /** Same status, same stdout lines and same stderr lines, each copy's root read as ROOT. */
  /**
   * Debian's setfiles with {@code options} and {@code policy} on {@code theirs}, relabel setfiles
   * with the same and {@code ourOptions} on {@code ours}: the same run ({@link #assertSameRun});
   * setfiles' run, for the caller's own checks.
   */
  static Run sameAsSetfiles(Path scratch, List<String> options, List<String> ourOptions, Path policy, Path theirs,
      Path ours) throws Exception {
    List<String> setfiles = new ArrayList<>(List.of(AttrTrees.SETFILES.toString()));
    setfiles.addAll(options);
    setfiles.addAll(List.of(policy.toString(), theirs.toString()));
    List<String> relabel = new ArrayList<>(List.of("setfiles"));
    relabel.addAll(ourOptions);
    relabel.addAll(options);
    relabel.addAll(List.of(policy.toString(), ours.toString()));
    Run checked = AttrTrees.run(setfiles, scratch);
    assertSameRun(checked, theirs, Trees.relabel(relabel), ours);
    return checked;
  }

  static void assertSameRun(Run setfiles, Path setfilesRoot, Run ours, Path ourRoot) {
    assertEquals(setfiles.status(), ours.status(), () -> "exit status\n--- setfiles\n" + setfiles + "\n--- ours\n" + ours);
    assertSameLines(normalize(setfiles.outLines(), setfilesRoot), normalize(ours.outLines(), ourRoot), "stdout");
    assertSameLines(normalize(setfiles.errLines(), setfilesRoot), normalize(ours.errLines(), ourRoot), "stderr");
  }

  private static void assertSameLines(TreeSet<String> expected, TreeSet<String> actual, String what) {
    TreeSet<String> missing = new TreeSet<>(expected);
    missing.removeAll(actual);
    TreeSet<String> extra = new TreeSet<>(actual);
    extra.removeAll(expected);
    assertTrue(missing.isEmpty() && extra.isEmpty(), () -> what + " differs: " + missing.size()
        + " lines only from setfiles, e.g. " + first(missing) + "; " + extra.size() + " only from ours, e.g. "
        + first(extra));
  }

  private static List<String> first(TreeSet<String> lines) {
    return lines.stream().limit(10).toList();
  }

  public static TreeSet<String> normalize(TreeSet<String> lines, Path root) {
    TreeSet<String> out = new TreeSet<>();
    String rootText = new String(root.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    for (String line : lines) {
      // The hard-linked pair of the tree is one inode: setfiles names it by the name its fts meets
      // first, in the directory's hash order (which differs from one filesystem to another);
      // relabel by its smallest name, at every -T. Either way one line for the inode.
      String l = line.replace(rootText, "ROOT")
          .replace("ROOT/usr/sbin/relabel-linked-too ", "ROOT/usr/sbin/relabel-linked{,-too} ")
          .replace("ROOT/usr/sbin/relabel-linked ", "ROOT/usr/sbin/relabel-linked{,-too} ");
      if (l.startsWith(AttrTrees.SETFILES + ": ")) {
        l = "PROG: " + l.substring(AttrTrees.SETFILES.toString().length() + 2);
      } else if (l.startsWith(RealRestorecon.RESTORECON + ": ")) {
        l = "PROG: " + l.substring(RealRestorecon.RESTORECON.toString().length() + 2);
      } else if (l.startsWith(SetfilesOutput.PREFIX)) {
        l = "PROG: " + l.substring(SetfilesOutput.PREFIX.length());
      }
      out.add(l);
    }
    return out;
  }

}
