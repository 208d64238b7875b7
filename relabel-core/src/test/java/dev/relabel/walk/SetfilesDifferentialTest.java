package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine against Debian's {@code setfiles -r} on copies of real trees with scrambled labels:
 * wrong types, other users and ranges, customizable types, no label at all. Both relabel
 * identical copies; every entry's {@code security.selinux} must then be identical, byte for byte.
 * Labels are set and read with the attr package's tools, not with the engine's own native layer.
 */
class SetfilesDifferentialTest {
  private static final List<String> SOURCES =
      List.of("/etc", "/usr/sbin", "/usr/bin", "/usr/lib/systemd", "/var/log", "/usr/share/man/man8");
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "system_u:object_r:public_content_t:s0",
    "unconfined_u:object_r:user_home_t:s0",
    "system_u:object_r:bin_t:s0",
  };

  @TempDir static Path base;
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
    // A deterministic scramble, applied to each copy with setfattr --restore.
    List<String> entries = AttrTrees.entries(template, base);
    assertTrue(entries.size() > 2_000, "tree too small: " + entries.size());
    Random random = new Random(20261129);
    Map<String, String> scramble = new java.util.LinkedHashMap<>();
    for (String relative : entries) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      // The last choice is no label at all.
      scramble.put(relative, choice < SCRAMBLED.length ? SCRAMBLED[choice] : null);
    }
    scrambleDump = AttrTrees.restoreDump(scramble);
  }

  private static Path scrambledCopy(String name) throws Exception {
    return AttrTrees.labelledCopy(template, base.resolve(name), scrambleDump, base);
  }

  @ParameterizedTest(name = "-T {0}, force {1}")
  @CsvSource({"1,false", "2,false", "1,true", "2,true"})
  void labelsMatchSetfiles(int threads, boolean force) throws Exception {
    Path reference = scrambledCopy("setfiles-" + threads + "-" + force);
    Path ours = scrambledCopy("ours-" + threads + "-" + force);
    assertEquals(AttrTrees.labels(reference, base), AttrTrees.labels(ours, base), "copies must start identical");

    List<String> command = new ArrayList<>(List.of(AttrTrees.SETFILES.toString(), "-T", String.valueOf(threads)));
    if (force) {
      command.add("-F");
    }
    command.addAll(List.of("-r", reference.toString(), Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()));
    AttrTrees.check(command, base);

    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads).withForce(force).withAlternateRoot(ours);
    RelabelReport report = Relabeler.onDisk(matcher, options, RelabelListener.NONE).run(List.of(ours));
    assertEquals(List.of(), report.failures());
    assertTrue(report.relabeled() > 1_000, "the scramble should have needed many changes: " + report);

    Map<String, String> expected = AttrTrees.labels(reference, base);
    Map<String, String> actual = AttrTrees.labels(ours, base);
    List<String> differences = new ArrayList<>();
    for (String path : expected.keySet()) {
      if (!expected.get(path).equals(actual.get(path))) {
        differences.add(path + ": setfiles " + expected.get(path) + ", ours " + actual.get(path));
      }
    }
    assertEquals(expected.keySet(), actual.keySet());
    assertEquals(List.of(), differences.subList(0, Math.min(30, differences.size())),
        differences.size() + " of " + expected.size() + " entries differ");
  }
}
