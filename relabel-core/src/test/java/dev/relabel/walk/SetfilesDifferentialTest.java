package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import dev.relabel.spec.PolicyLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
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
  private static final Path SETFILES = Path.of("/usr/sbin/setfiles");
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
    String missing = Oracles.missing();
    if (missing == null && !Files.isExecutable(SETFILES)) {
      missing = SETFILES + " is missing (apt-get install policycoreutils)";
    }
    if (missing == null && !Files.isExecutable(Path.of("/usr/bin/setfattr"))) {
      missing = "setfattr is missing (apt-get install attr)";
    }
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
    template = base.resolve("template");
    for (String source : SOURCES) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      run(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()));
    }
    // A deterministic scramble, applied to each copy with setfattr --restore.
    List<String> entries = find(template);
    assertTrue(entries.size() > 2_000, "tree too small: " + entries.size());
    Random random = new Random(20261129);
    StringBuilder dump = new StringBuilder();
    for (String relative : entries) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      if (choice == SCRAMBLED.length) {
        continue; // no label at all
      }
      dump.append("# file: ").append(relative).append('\n')
          .append("security.selinux=\"").append(SCRAMBLED[choice]).append("\"\n\n");
    }
    scrambleDump = dump.toString();
  }

  private static Path scrambledCopy(String name) throws Exception {
    Path copy = base.resolve(name);
    run(List.of("cp", "-a", "--no-preserve=xattr", template.toString(), copy.toString()));
    Path dumpFile = base.resolve(name + ".dump");
    Files.writeString(dumpFile, scrambleDump.replace("# file: ", "# file: " + copy + "/"));
    run(List.of("setfattr", "-h", "--restore=" + dumpFile));
    return copy;
  }

  @ParameterizedTest(name = "-T {0}, force {1}")
  @CsvSource({"1,false", "2,false", "1,true", "2,true"})
  void labelsMatchSetfiles(int threads, boolean force) throws Exception {
    Path reference = scrambledCopy("setfiles-" + threads + "-" + force);
    Path ours = scrambledCopy("ours-" + threads + "-" + force);
    assertEquals(labels(reference), labels(ours), "copies must start identical");

    List<String> command = new ArrayList<>(List.of(SETFILES.toString(), "-T", String.valueOf(threads)));
    if (force) {
      command.add("-F");
    }
    command.addAll(List.of("-r", reference.toString(), Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()));
    run(command);

    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads).withForce(force).withAlternateRoot(ours);
    RelabelReport report = Relabeler.onDisk(matcher, options, RelabelListener.NONE).run(List.of(ours));
    assertEquals(List.of(), report.failures());
    assertTrue(report.relabeled() > 1_000, "the scramble should have needed many changes: " + report);

    Map<String, String> expected = labels(reference);
    Map<String, String> actual = labels(ours);
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

  /** Every entry's raw security.selinux (hex, so a trailing NUL counts), by path relative to the root. */
  private static Map<String, String> labels(Path root) throws Exception {
    String dump = run(List.of("getfattr", "-h", "-R", "-e", "hex", "-n", "security.selinux", "--absolute-names",
        root.toString()));
    Map<String, String> labels = new TreeMap<>();
    for (String entry : find(root)) {
      labels.put(entry, "<none>");
    }
    String file = null;
    for (String line : dump.split("\n")) {
      if (line.startsWith("# file: ")) {
        file = line.substring("# file: ".length());
        file = file.equals(root.toString()) ? "." : file.substring(root.toString().length() + 1);
      } else if (line.startsWith("security.selinux=") && file != null) {
        labels.put(file, line.substring("security.selinux=".length()));
      }
    }
    return labels;
  }

  /** Every entry under root (root itself as "."), relative. */
  private static List<String> find(Path root) throws Exception {
    List<String> entries = new ArrayList<>();
    for (String line : run(List.of("find", root.toString(), "-printf", "%P\\n")).split("\n")) {
      entries.add(line.isEmpty() ? "." : line);
    }
    return entries;
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    // stderr goes to a file: a child writing much to both pipes must not block on the one unread.
    Path errors = Files.createTempFile(base, "stderr", ".txt");
    Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + command);
    }
    // getfattr exits 1 when some entries have no such attribute; that is expected here.
    if (process.exitValue() != 0 && !command.get(0).equals("getfattr")) {
      fail(command + " exited " + process.exitValue() + ": " + Files.readString(errors, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
