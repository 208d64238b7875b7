package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/relabel} under a seccomp filter that fails the system calls newer than a container
 * runtime's profile knows with EPERM, as moby's default action does: openat2 (437), setxattrat
 * (463) and getxattrat (464). relabel must label as it does without the filter (same output,
 * status and labels), through the calls every kernel has. The filter is a small C program
 * ({@code seccomp-eperm.c} beside this class), built with gcc into the scratch directory.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SeccompIT {
  private static final String FILTERED = "437,463,464";
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final String VAR = "system_u:object_r:var_t:s0";

  @TempDir
  Path dir;

  private Path launcher;
  private Path filter;
  private Path tree;
  private Path spec;

  @BeforeEach
  void build() throws Exception {
    launcher = LauncherScript.launcher("SeccompIT");
    AttrTrees.requireTools(false);
    if (!Files.isExecutable(Path.of("/usr/bin/gcc"))) {
      AttrTrees.unavailable("gcc is missing (apt-get install gcc libc6-dev)");
    }
    Path source = dir.resolve("seccomp-eperm.c");
    try (InputStream in = SeccompIT.class.getResourceAsStream("seccomp-eperm.c")) {
      Files.copy(in, source);
    }
    filter = dir.resolve("seccomp-eperm");
    AttrTrees.check(List.of("gcc", "-O2", "-o", filter.toString(), source.toString()), dir);
    tree = dir.resolve("tree");
    spec = Files.writeString(dir.resolve("file_contexts"),
        tree + "(/.*)?\t" + ETC + "\n" + tree + "/sub(/.*)?\t" + VAR + "\n");
  }

  /** A fresh tree at the same place: some entries unlabelled, some with another label, one right. */
  private void freshTree() throws IOException, InterruptedException {
    AttrTrees.check(List.of("rm", "-rf", "--", tree.toString()), dir);
    Files.createDirectories(tree.resolve("sub/deeper"));
    for (String file : List.of("a", "b", "sub/c", "sub/deeper/d")) {
      Files.writeString(tree.resolve(file), "");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("a", "system_u:object_r:user_home_t:s0");
    labels.put("sub/c", ETC);
    labels.put("sub/deeper/d", VAR);
    Path dump = Files.writeString(dir.resolve("labels.dump"),
        AttrTrees.restoreDump(labels).replace("# file: ", "# file: " + tree + "/"));
    AttrTrees.check(List.of("setfattr", "-h", "--restore=" + dump), dir);
  }

  /** A run's status, its output lines sorted (with -T 2 they come from two threads), and the labels it left. */
  private record Outcome(int status, List<String> out, List<String> err, Map<String, String> labels) {}

  private Outcome run(boolean filtered, String... args) throws IOException, InterruptedException {
    freshTree();
    List<String> command = new ArrayList<>();
    if (filtered) {
      command.addAll(List.of(filter.toString(), FILTERED));
    }
    command.add(launcher.toString());
    command.addAll(List.of(args));
    AttrTrees.Run run = AttrTrees.run(command, dir);
    return new Outcome(run.status(), run.out().lines().sorted().toList(), run.err().lines().sorted().toList(),
        AttrTrees.labels(tree, dir));
  }

  @Test
  void theFilterFailsWhatItNames() throws Exception {
    // The filter works: a program whose dynamic loader needs openat (257) cannot start under it.
    AttrTrees.Run blocked = AttrTrees.run(List.of(filter.toString(), "257", "/bin/cat", spec.toString()), dir);
    assertNotEquals(0, blocked.status(), blocked::toString);
    assertTrue((blocked.out() + blocked.err()).contains("Operation not permitted"), blocked::toString);
  }

  @Test
  void setfilesLabelsAsWithoutTheFilter() throws Exception {
    for (String threads : List.of("1", "2")) {
      String[] args = {"setfiles", "-v", "-T", threads, spec.toString(), tree.toString()};
      Outcome plain = run(false, args);
      Outcome filtered = run(true, args);
      assertEquals(0, plain.status(), plain::toString);
      assertEquals(plain, filtered, "-T " + threads);
      assertTrue(plain.out().contains("Relabeled " + tree + "/sub/c from " + ETC + " to " + VAR), plain::toString);
      assertEquals(List.of(), plain.err(), plain::toString);
    }
  }

  @Test
  void aCheckAndChconAsWithoutTheFilter() throws Exception {
    for (String[] args : List.of(
        new String[] {"setfiles", "-n", "-v", spec.toString(), tree.toString()},
        new String[] {"chcon", "-R", "-v", ETC, tree.toString()})) {
      Outcome plain = run(false, args);
      Outcome filtered = run(true, args);
      assertEquals(0, plain.status(), plain::toString);
      assertEquals(plain, filtered, String.join(" ", args));
    }
  }
}
