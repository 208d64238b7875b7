package dev.relabel.bench.scaling;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.bench.tree.TreeLabels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syscall floor (benchmarks/floor/check-floor.c), built as the harness builds it: it visits
 * every entry find(1) lists, no more (symlinks are not followed), however many names a directory
 * holds, whatever bytes a name is made of, on one thread or several; with -w it writes its label
 * on each of them; and a tree it cannot read is an error, not a count.
 */
class FloorProgramTest {
  /** The checkout's top: surefire runs in the benchmarks module's directory. */
  private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

  private static Path build(Path scratch) throws Exception {
    if (Versions.output(List.of("cc", "--version")) == null) {
      if (Oracles.inCi()) {
        throw new AssertionError("cc is not installed: the floor cannot be built (apt-get install gcc)");
      }
      Assumptions.abort("cc is not installed");
    }
    return FloorProgram.build(CHECKOUT, scratch);
  }

  @Test
  void countsWhatFindCounts(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    Path binary = build(scratch);
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
    FloorProgram.Probe probe = FloorProgram.probe(binary, 1, tree, scratch);
    assertEquals(Long.parseLong(find), probe.entries());
    assertEquals(TreeLabels.count(tree), probe.entries(), "the harness's own count");
    assertTrue(probe.method().startsWith("labels read with getxattrat")
        || probe.method().startsWith("getxattrat: ENOSYS"), probe.method());
    // Threads share the directories: each entry is still counted once, whatever the interleaving.
    for (int threads : new int[] {2, 3, 8}) {
      for (int round = 0; round < 5; round++) {
        assertEquals(probe, FloorProgram.probe(binary, threads, tree, scratch), threads + " threads");
      }
    }

    // A file as the tree: one entry.
    assertEquals(1, FloorProgram.probe(binary, 2, wide.resolve("a-file-with-a-longish-name-1"), scratch).entries());
  }

  @Test
  void inRelabelModeItWritesItsLabelOnEveryEntry(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    Path binary = build(scratch);
    Path tree = Files.createDirectory(dir.resolve("tree"));
    TreeGenerator.generate(tree, 500, 7);
    Files.createSymbolicLink(tree.resolve("etc-link"), Path.of("/etc"));
    AttrTrees.check(List.of(binary.toString(), "-T", "3", "-w", Tool.FLOOR_LABEL, tree.toString()), scratch);
    Map<String, String> labels = AttrTrees.labels(tree, scratch);
    assertEquals(TreeLabels.count(tree), labels.size());
    // With its NUL, as setfiles writes a label; the link's own, not /etc's.
    assertEquals(Set.of(AttrTrees.hex(Tool.FLOOR_LABEL)), Set.copyOf(labels.values()), labels.toString());
  }

  @Test
  void aTreeItCannotReadIsAnError(@TempDir Path dir) throws Exception {
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    Path binary = build(scratch);
    Path missing = dir.resolve("missing");
    IOException e = assertThrows(IOException.class, () -> FloorProgram.probe(binary, 2, missing, scratch));
    assertTrue(e.getMessage().contains("exited 1") && e.getMessage().contains(missing + ": fstatat: No such file"),
        e.getMessage());
    IOException none = assertThrows(IOException.class, () -> FloorProgram.probe(binary, 0, dir, scratch));
    assertTrue(none.getMessage().contains("exited 2") && none.getMessage().contains("usage: check-floor [-T N] [-w LABEL] TREE"),
        none.getMessage());
  }

  @Test
  void aMissingSourceIsNamed(@TempDir Path dir) {
    IOException e = assertThrows(IOException.class, () -> FloorProgram.build(dir, dir));
    assertTrue(e.getMessage().contains(dir.resolve(FloorProgram.SOURCE).toString()), e.getMessage());
  }
}
