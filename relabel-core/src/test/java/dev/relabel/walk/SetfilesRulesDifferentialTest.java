package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walker's rules where libselinux's are easy to get wrong, against Debian's {@code setfiles}
 * on identical small trees: which paths {@code -e} excludes (directories only, and any root at or
 * beneath one), and that the second name of a hard-linked file is left alone, so a dry run counts
 * one change per inode. Both relabel with {@code -r}, each its own copy.
 */
class SetfilesRulesDifferentialTest {
  private static final Path SETFILES = Path.of("/usr/sbin/setfiles");
  private static final String OLD = "staff_u:staff_r:tmp_t:s0-s0:c1";
  private static final String[] POLICY = {
    "/tree(/.*)?  system_u:object_r:etc_t:s0",
    "/tree/bin(/.*)?  --  system_u:object_r:bin_t:s0",
    "/tree/skip(/.*)?  system_u:object_r:skip_t:s0",
  };

  @TempDir Path dir;
  private Path fileContexts;

  @BeforeEach
  void requireSetfiles() throws IOException {
    if (!Files.isExecutable(SETFILES)) {
      String missing = SETFILES + " is missing (apt-get install policycoreutils)";
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
    fileContexts = TestPolicy.write(dir.resolve("policy"), POLICY);
  }

  /** The same tree under {@code base}/tree, every entry labelled OLD. */
  private static void build(Path base) throws IOException {
    Path tree = Files.createDirectories(base.resolve("tree"));
    for (String d : List.of("bin", "skip/sub", "keep/sub", "links")) {
      Files.createDirectories(tree.resolve(d));
    }
    for (String f : List.of("bin/tool", "skip/f", "skip/sub/g", "keep/f", "keep/sub/g", "excluded-file", "links/a")) {
      Files.createFile(tree.resolve(f));
    }
    Files.createLink(tree.resolve("links/b"), tree.resolve("links/a"));
    Files.createLink(tree.resolve("keep/c"), tree.resolve("links/a"));
    Files.createSymbolicLink(tree.resolve("bin/link"), tree.resolve("bin/tool"));
    try (Stream<Path> paths = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        DiskLabels.set(p, OLD);
      }
    }
  }

  private static Map<String, String> labels(Path base) throws IOException {
    Map<String, String> labels = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(base.resolve("tree"))) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        labels.put(base.relativize(p).toString(), DiskLabels.get(p));
      }
    }
    return labels;
  }

  /** setfiles -v [-n] -r BASE -e BASE/tree/skip -e BASE/tree/excluded-file FC ROOTS...; its "relabel" lines. */
  private List<String> setfiles(Path base, boolean dryRun, String... roots) throws Exception {
    List<String> command = new ArrayList<>(List.of(SETFILES.toString(), "-v"));
    if (dryRun) {
      command.add("-n");
    }
    command.addAll(List.of("-r", base.toString(), "-e", base.resolve("tree/skip").toString(),
        "-e", base.resolve("tree/excluded-file").toString(), fileContexts.toString()));
    for (String root : roots) {
      command.add(base.resolve(root).toString());
    }
    Path output = dir.resolve("setfiles.out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + command);
    }
    String text = Files.readString(output, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      fail(command + " exited " + process.exitValue() + ": " + text);
    }
    return text.lines().filter(l -> l.startsWith("Relabeled ") || l.startsWith("Would relabel ")).toList();
  }

  private RelabelReport ours(Path base, boolean dryRun, String... roots) throws IOException {
    LabelMatcher matcher = TestPolicy.matcher(dir.resolve("policy"), POLICY);
    RelabelOptions options = RelabelOptions.defaults().withDryRun(dryRun).withAlternateRoot(base)
        .withExcludes(List.of(base.resolve("tree/skip"), base.resolve("tree/excluded-file")));
    return Relabeler.onDisk(matcher, options, RelabelListener.NONE)
        .run(Stream.of(roots).map(base::resolve).toList());
  }

  @Test
  void excludesAndHardLinksAgreeWithSetfiles() throws Exception {
    Path reference = dir.resolve("setfiles");
    Path mine = dir.resolve("ours");
    build(reference);
    build(mine);
    String[] roots = {"tree", "tree/skip/sub", "tree/excluded-file", "tree/links"};

    int wouldRelabel = setfiles(reference, true, roots).size();
    RelabelReport dry = ours(mine, true, roots);
    assertEquals(List.of(), dry.failures());
    assertEquals(wouldRelabel, dry.relabeled(), "changes a dry run reports");

    List<String> relabelled = setfiles(reference, false, roots);
    RelabelReport real = ours(mine, false, roots);
    assertEquals(List.of(), real.failures());
    assertEquals(relabelled.size(), real.relabeled(), "changes made: setfiles made " + relabelled);

    Map<String, String> expected = labels(reference);
    assertEquals(expected, labels(mine));
    // What the comparison covers: the excluded directory kept its label, the excluded file did not.
    assertEquals(OLD, expected.get("tree/skip/sub/g"));
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", expected.get("tree/excluded-file"));
  }
}
