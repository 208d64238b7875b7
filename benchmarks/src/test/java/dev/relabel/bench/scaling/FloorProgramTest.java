package dev.relabel.bench.scaling;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.bench.tree.TreeLabels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syscall floors, built as the harness builds them: check-floor.c, and its walk on the JVM
 * (WalkFloor.java through JNA and through JNI, {@code --jvm-floors}). Each visits every entry
 * find(1) lists, no more (symlinks are not followed), however many names a directory holds,
 * whatever bytes a name is made of, on one thread or several; with -w it writes its label on each
 * of them; and a tree it cannot read is an error, not a count.
 */
class FloorProgramTest {
  /** The checkout's top: surefire runs in the benchmarks module's directory. */
  private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

  @TempDir static Path shared;
  /** Each floor's command, to which check-floor's arguments are appended. */
  private static Map<String, List<String>> floors;

  @BeforeAll
  static void build() throws Exception {
    if (Versions.output(List.of("cc", "--version")) == null) {
      AttrTrees.unavailable("cc is not installed: the floors cannot be built (apt-get install gcc)");
    }
    Path scratch = Files.createDirectory(shared.resolve("scratch"));
    JvmFloor walk = JvmFloor.build(JvmFloor.Program.WALK, CHECKOUT, CHECKOUT.resolve("bin/relabel"),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), scratch);
    floors = new LinkedHashMap<>();
    floors.put(ResultsTable.FLOOR, List.of(FloorProgram.build(CHECKOUT, scratch).toString()));
    floors.put(ResultsTable.FLOOR_JNA, walk.walk("jna"));
    floors.put(ResultsTable.FLOOR_JNI, walk.walk("jni"));
  }

  @Test
  void countsWhatFindCounts(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    Path tree = Files.createDirectory(dir.resolve("tree"));
    TreeGenerator.generate(tree, 3000, 5);
    // More names in one directory than one getdents64 buffer holds (32 KiB).
    Path wide = Files.createDirectory(tree.resolve("wide"));
    for (int i = 0; i < 2500; i++) {
      Files.createFile(wide.resolve("a-file-with-a-longish-name-" + i));
    }
    Files.createDirectories(tree.resolve("empty/deeper/still"));
    Files.createSymbolicLink(tree.resolve("etc-link"), Path.of("/etc"));
    Files.createSymbolicLink(tree.resolve("loop"), Path.of("."));
    AttrTrees.touchRaw(wide, "\u00ff\u00fe not UTF-8", scratch);
    AttrTrees.setLabel(wide.resolve("a-file-with-a-longish-name-7"), "system_u:object_r:etc_t:s0", scratch);

    String find = AttrTrees.check(List.of("sh", "-c", "find \"$1\" | wc -l", "sh", tree.toString()), scratch).trim();
    for (Map.Entry<String, List<String>> floor : floors.entrySet()) {
      FloorProgram.Probe probe = FloorProgram.probe(floor.getValue(), 1, tree, scratch);
      assertEquals(Long.parseLong(find), probe.entries(), floor.getKey());
      assertEquals(TreeLabels.count(tree), probe.entries(), "the harness's own count");
      assertTrue(probe.method().startsWith("labels read with getxattrat")
          || probe.method().startsWith("getxattrat: ENOSYS"), probe.method());
      // Threads share the directories: each entry is still counted once, whatever the interleaving.
      for (int threads : new int[] {2, 3, 8}) {
        for (int round = 0; round < 5; round++) {
          assertEquals(probe, FloorProgram.probe(floor.getValue(), threads, tree, scratch),
              floor.getKey() + ", " + threads + " threads");
        }
      }
      // A file as the tree: one entry.
      assertEquals(1, FloorProgram.probe(floor.getValue(), 2, wide.resolve("a-file-with-a-longish-name-1"), scratch)
          .entries(), floor.getKey());
    }
    assertTrue(FloorProgram.probe(floors.get(ResultsTable.FLOOR_JNA), 1, tree, scratch).method().endsWith("(jna)"));
    assertTrue(FloorProgram.probe(floors.get(ResultsTable.FLOOR_JNI), 1, tree, scratch).method().endsWith("(jni)"));
  }

  @Test
  void inRelabelModeItWritesItsLabelOnEveryEntry(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    for (Map.Entry<String, List<String>> floor : floors.entrySet()) {
      Path tree = Files.createDirectory(dir.resolve("tree-" + floor.getKey()));
      TreeGenerator.generate(tree, 500, 7);
      Files.createSymbolicLink(tree.resolve("etc-link"), Path.of("/etc"));
      List<String> command = new ArrayList<>(floor.getValue());
      command.addAll(List.of("-T", "3", "-w", Tool.FLOOR_LABEL, tree.toString()));
      AttrTrees.check(command, scratch);
      Map<String, String> labels = AttrTrees.labels(tree, scratch);
      assertEquals(TreeLabels.count(tree), labels.size());
      // With its NUL, as setfiles writes a label; the link's own, not /etc's.
      assertEquals(Set.of(AttrTrees.hex(Tool.FLOOR_LABEL)), Set.copyOf(labels.values()), floor.getKey() + ": " + labels);
    }
  }

  @Test
  void aTreeItCannotReadIsAnError(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    Path missing = dir.resolve("missing");
    for (Map.Entry<String, List<String>> floor : floors.entrySet()) {
      IOException e = assertThrows(IOException.class, () -> FloorProgram.probe(floor.getValue(), 2, missing, scratch));
      assertTrue(e.getMessage().contains("exited 1") && e.getMessage().contains(missing + ": fstatat: "),
          floor.getKey() + ": " + e.getMessage());
      IOException none = assertThrows(IOException.class, () -> FloorProgram.probe(floor.getValue(), 0, dir, scratch));
      assertTrue(none.getMessage().contains("exited 2") && none.getMessage().contains("[-T N] [-w LABEL] TREE"),
          floor.getKey() + ": " + none.getMessage());
    }
    IOException c = assertThrows(IOException.class, () -> FloorProgram.probe(floors.get(ResultsTable.FLOOR), 2, missing,
        scratch));
    assertTrue(c.getMessage().contains(missing + ": fstatat: No such file"), c.getMessage());
  }

  @Test
  void aMissingSourceIsNamed(@TempDir Path dir) {
    IOException e = assertThrows(IOException.class, () -> FloorProgram.build(dir, dir));
    assertTrue(e.getMessage().contains(dir.resolve(FloorProgram.SOURCE).toString()), e.getMessage());
    IOException jvm = assertThrows(IOException.class,
        () -> JvmFloor.build(JvmFloor.Program.WALK, dir, CHECKOUT.resolve("bin/relabel"), "java", dir));
    assertTrue(jvm.getMessage().contains(dir.resolve("benchmarks/floor/WalkFloor.java").toString()), jvm.getMessage());
  }
}
