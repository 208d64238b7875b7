package dev.relabel.bench.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness's quick mode, end to end: a small generated tree, -T 1 and 2, one run each, relabel
 * against Debian's setfiles (and restorecon where gcc can build its shim) and the syscall floor,
 * both modes; then the three files' structure, the floor's runs and relabel's walk times. Runs under failsafe (mvn verify), after package has built relabel.jar.
 */
class ScalingHarnessIT {
  private static final int SIZE = 3000;

  /**
   * The launcher failsafe (mvn verify) names in relabel.launcher, after package has built the jar;
   * outside failsafe the test is skipped (failed in CI), as without the reference tools.
   */
  private static Path launcher() {
    if (System.getProperty("relabel.launcher") == null && !Oracles.inCi()) {
      Assumptions.abort("runs under maven-failsafe-plugin (mvn verify), which sets relabel.launcher");
    }
    AttrTrees.requireTools(true);
    return Path.of(System.getProperty("relabel.launcher")).toAbsolutePath().normalize();
  }

  /** What one relabel-bench command wrote on its standard output and error; it must exit 0. */
  private record Bench(String log, String err) {}

  private static Bench bench(String... args) {
    StringWriter log = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchMain());
    cli.setOut(new PrintWriter(log));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    assertEquals(0, status, "log:\n" + log + "\nerr:\n" + err);
    return new Bench(log.toString(), err.toString());
  }

  @Test
  void quickModeWritesAllThreeFiles(@TempDir Path dir) throws Exception {
    Path launcher = launcher();
    Path out = dir.resolve("out");
    Path work = Files.createDirectory(dir.resolve("work"));
    boolean gcc = Versions.output(List.of("gcc", "--version")) != null;

    List<String> args = new ArrayList<>(List.of("scaling", "--generate", Integer.toString(SIZE), "--threads", "1,2",
        "--repeat", "1", "--compare", "setfiles,restorecon", "--mode", "both", "--out", out.toString(), "--work",
        work.toString(), "--relabel", launcher.toString()));
    if (gcc) {
      // The floor is built with cc, as restorecon's shim is (FloorProgramTest fails in CI without it).
      args.add("--floor");
    }
    Bench run = bench(args.toArray(String[]::new));
    if (!gcc) {
      assertTrue(run.err().contains("restorecon skipped: gcc is not installed"), run.err());
    }
    try (var left = Files.list(work)) {
      assertEquals(0, left.count(), "the generated tree is removed");
    }

    // results.csv: the header, then one row per tool, -T and mode in each scope.
    List<String> lines = Files.readAllLines(out.resolve("results.csv"));
    assertEquals(ResultsCsv.HEADER, lines.get(0));
    Map<String, String[]> rows = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      assertEquals(12, f.length, line);
      rows.put(f[0] + "/" + f[2] + "/" + f[3] + "/" + f[4], f);
      assertEquals(Integer.toString(SIZE + 1), f[6], "entries, the root included: " + line);
      assertTrue(Double.parseDouble(f[7]) > 0, "wall: " + line);
      // The floor can finish 3,000 entries within rusage's 10 ms tick; every other tool cannot.
      assertTrue(Double.parseDouble(f[8]) + Double.parseDouble(f[9]) > 0 || f[0].equals("floor"), "cpu: " + line);
      if (Files.isExecutable(ChildTimer.GNU_TIME)) {
        assertTrue(Long.parseLong(f[10]) > (f[0].equals("floor") ? 0 : 1000), "peak RSS: " + line);
      }
      if (f[0].equals("relabel") && f[4].equals("check")) {
        // The walk's own time, from relabel's --json (check runs by default): less than the whole process.
        double walk = Double.parseDouble(f[11]);
        assertTrue(walk >= 0 && walk < Double.parseDouble(f[7]), "walk: " + line);
      } else {
        assertEquals("", f[11], "only relabel's check runs report their walk: " + line);
      }
    }
    List<String> expected = new ArrayList<>();
    if (gcc) {
      for (String mode : List.of("relabel", "check")) {
        for (String threads : List.of("1", "2")) {
          expected.addAll(List.of("floor/root/" + threads + "/" + mode, "floor/literal/" + threads + "/" + mode));
        }
      }
    }
    for (String mode : List.of("relabel", "check")) {
      for (String threads : List.of("1", "2")) {
        expected.add("relabel/root/" + threads + "/" + mode);
        expected.add("setfiles/root/" + threads + "/" + mode);
        if (gcc) {
          expected.add("relabel/literal/" + threads + "/" + mode);
          expected.add("setfiles/literal/" + threads + "/" + mode);
          expected.add("restorecon/literal/" + threads + "/" + mode);
        }
      }
    }
    assertEquals(new java.util.TreeSet<>(expected), new java.util.TreeSet<>(rows.keySet()));
    assertTrue(rows.get("setfiles/root/1/relabel")[1].startsWith("policycoreutils "), "setfiles' version from dpkg");

    // results.md: wall medians and a ratio column for each reference, a row per mode and -T.
    String md = Files.readString(out.resolve("results.md"));
    assertTrue(md.contains(gcc ? "| mode | -T | relabel | setfiles | floor | relabel / setfiles | relabel / floor |"
        : "| mode | -T | relabel | setfiles | relabel / setfiles |"), md);
    for (String mode : List.of("relabel", "check")) {
      for (String threads : List.of("1", "2")) {
        boolean floorRan = gcc;
        String floor = !gcc ? "" : floorRan ? "[0-9.]+ \\(1\\) \\| " : "- \\| ";
        String overFloor = !gcc ? "" : floorRan ? " [0-9]+\\.[0-9]{3} \\|" : " - \\|";
        assertTrue(md.matches("(?s).*\\| " + mode + " \\| " + threads + " \\| [0-9.]+ \\(1\\) \\| [0-9.]+ \\(1\\) \\| "
            + floor + "[0-9]+\\.[0-9]{3} \\|" + overFloor + "\n.*"), mode + " -T " + threads + ":\n" + md);
      }
    }
    if (gcc) {
      assertTrue(md.contains("| relabel / setfiles | relabel / restorecon | relabel / floor |"), md);
    }
    // The speed-up of each tool, the floor's among them (the ceiling of this machine).
    assertTrue(md.contains(gcc ? "| mode | -T | ideal | relabel | setfiles | floor | relabel, walk only |"
        : "| mode | -T | ideal | relabel | setfiles | relabel, walk only |"), md);
    if (gcc) {
      assertTrue(md.contains("| mode | -T | ideal | relabel | setfiles | restorecon | floor | relabel, walk only |"), md);
      // Against the floor, in each mode at each -T.
      assertTrue(md.matches("(?s).*\\| relabel, walk only \\| check \\| 2 \\| [0-9.]+ \\| [0-9.]+ \\| [0-9]+\\.[0-9]{2} \\|.*"),
          md);
      assertTrue(md.matches("(?s).*\\| setfiles \\| relabel \\| 1 \\| [0-9.]+ \\| [0-9.]+ \\| [0-9]+\\.[0-9]{2} \\|.*"), md);
    }

    // scaling.png decodes, at the size the plot draws.
    BufferedImage png = ImageIO.read(out.resolve("scaling.png").toFile());
    assertNotNull(png, "a PNG ImageIO can read");
    assertEquals(ScalingPlot.WIDTH, png.getWidth());
    assertEquals(ScalingPlot.HEIGHT, png.getHeight());
  }

  /**
   * {@code --jvm-floors}: the floor's walk on the JVM through JNA and through JNI runs beside the
   * floor at each -T (it implies {@code --floor}), each counted the tree's entries (the harness
   * checks before it measures), and the paired ratios split relabel's distance to the floor.
   */
  @Test
  void jvmFloorsRunBesideTheFloor(@TempDir Path dir) throws Exception {
    Path launcher = launcher();
    if (Versions.output(List.of("cc", "--version")) == null) {
      AttrTrees.unavailable("cc (the floors are built with it: apt-get install gcc)");
    }
    Path out = dir.resolve("out");
    Bench run = bench("scaling", "--generate", "1000", "--threads", "1,2", "--repeat", "1", "--compare",
        "setfiles", "--mode", "check", "--jvm-floors", "--java", Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "--out", out.toString(), "--work", Files.createDirectory(dir.resolve("work")).toString(),
        "--relabel", launcher.toString());
    assertTrue(run.log().contains("floor-jna: labels read with getxattrat")
        || run.log().contains("floor-jna: getxattrat: ENOSYS"), run.log());
    Set<String> rows = new java.util.TreeSet<>();
    List<String> csv = Files.readAllLines(out.resolve("results.csv"));
    for (String line : csv.subList(1, csv.size())) {
      String[] f = line.split(",", -1);
      rows.add(f[0] + "/" + f[3]);
      assertEquals("1001", f[6], "entries, the root included: " + line);
    }
    assertEquals(Set.of("floor/1", "floor/2", "floor-jna/1", "floor-jna/2", "floor-jni/1", "floor-jni/2",
        "relabel/1", "relabel/2", "setfiles/1", "setfiles/2"), rows);
    String md = Files.readString(out.resolve("results.md"));
    for (String threads : List.of("1", "2")) {
      for (String ratio : List.of("relabel / floor-jna", "relabel / floor-jni", "floor-jni / floor", "floor-jna / floor",
          "floor-jna / floor-jni")) {
        assertTrue(md.matches("(?s).*\\| check \\| " + threads + " \\| " + ratio + " \\| [0-9]+\\.[0-9]{2} \\(.*"),
            ratio + " at -T " + threads + ":\n" + md);
      }
    }
    assertTrue(md.contains("  - `floor-jni`: benchmarks/floor/WalkFloor.java compiled here"), md);
  }

  /**
   * {@code relabel-bench short}, one round: every command ran (each a child that must exit 0), one
   * CSV line and one table row per command, in order, and nothing written beside the policy.
   */
  @Test
  void shortRunsWritesBothFiles(@TempDir Path dir) throws Exception {
    Path launcher = launcher();
    Path policy = Path.of("/etc/selinux/default/contexts/files/file_contexts");
    Path compiled = Path.of(policy + ".relabel");
    boolean compiledBefore = Files.exists(compiled);
    Path out = dir.resolve("out");
    bench("short", "--repeat", "1", "--policy", policy.toString(), "--setfiles",
        "3.4=" + AttrTrees.SETFILES, "--relabel", launcher.toString(), "--out", out.toString());
    List<String> csv = Files.readAllLines(out.resolve("short.csv"));
    assertEquals(List.of("java -version", "JVM + relabel.jar (floor)", "JVM + relabel.jar + JNA lgetxattr (floor)",
        "JVM + relabel.jar + JNI lgetxattr (floor)", "relabel --version", "relabel restorecon -n FILE",
        "relabel setfiles -n FILE_CONTEXTS FILE", "relabel lookup FILE", "java -version, CDS at its own address",
        "restorecon -n FILE, CDS at its own address", "lookup FILE, CDS at its own address",
        "setfiles 3.4 -n FILE_CONTEXTS FILE"),
        csv.stream().skip(1).map(line -> line.substring(1, line.indexOf('"', 1))).toList());
    String md = Files.readString(out.resolve("short.md"));
    assertTrue(md.contains("| java -version | ") && md.contains("| 1.00x |"), md);
    assertTrue(md.contains("| setfiles 3.4 -n FILE_CONTEXTS FILE | "), md);
    assertTrue(md.contains("  - restorecon -n FILE, CDS at its own address: `RELABEL_JAVA_OPTS='"
        + ShortRunsBench.FIXED_ADDRESS + "' " + launcher + " restorecon -n "), md);
    assertTrue(md.contains(compiledBefore ? "compiled policy fresh" : "compiled policy not used"), md);
    // The class-loading timeline: one row per relabel command, each having reached relabel's main.
    assertTrue(md.contains("## Where a start goes"), md);
    for (String tool : List.of("relabel --version", "relabel restorecon -n FILE", "relabel lookup FILE")) {
      String row = md.lines().filter(line -> line.startsWith("| " + tool + " | ") && line.split("\\|").length > 9)
          .findFirst().orElseThrow(() -> new AssertionError("no timeline row for " + tool + " in\n" + md));
      assertTrue(!row.split("\\|")[4].trim().equals("–"), "relabel's main reached: " + row);
    }
    assertEquals(compiledBefore, Files.exists(compiled), "the harness compiles nothing");
  }
}
