package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Entries reached again after a walk (multiply-linked files, directory digests) on the real tree,
 * down a chain deeper than {@link Revisit#OPEN_LEVELS}.
 */
class RevisitTest {
  private static final String LABEL = "system_u:object_r:etc_t:s0";
  private static final int DEPTH = 300;
  private static final byte[] F = {'f'};

  @TempDir
  Path dir;

  /** An entry the walk met. */
  private record Met(byte[] path, long device, long inode) implements Revisit.Entry {}

  /**
   * A file "f" at some levels of a chain 300 directories deep, reached again deepest first; while
   * the first is labelled, level 180 is moved out of the chain. Revisit held a descriptor a level
   * (a file linked 10,000 levels down failed with EMFILE under a limit below that); now at most
   * {@link Revisit#OPEN_LEVELS} and a few are open at once, none left after. The levels given back
   * are reopened through {@code ..}: those below the move are the moved directories (the files at
   * levels 250 and 200 are labelled where they now are); level 179 is not what level 180's
   * {@code ..} now leads to, so the levels given back are forgotten and the next file is reached
   * from the levels still held: by name down to level 150 (where the directories that {@code ..}
   * led to, without the check, were others), or up to level 50.
   */
  @ParameterizedTest
  @ValueSource(strings = {"0 10 50 150 200 250 300", "0 10 50 200 250 300"})
  void aChainDeeperThanTheLevelsHeldOpenIsRevisitedWithFewDescriptors(String levels) throws Exception {
    Set<Integer> withFile = Stream.of(levels.split(" ")).map(Integer::valueOf).collect(Collectors.toSet());
    Path root = dir.resolve("t");
    List<Path> files = new ArrayList<>();
    Path level = root;
    for (int depth = 0; depth <= DEPTH; depth++) {
      Files.createDirectories(level);
      if (withFile.contains(depth)) {
        files.add(Files.createFile(level.resolve("f")));
      }
      level = level.resolve("d");
    }
    NativeFileTree nativeTree = new NativeFileTree();
    List<Met> met = new ArrayList<>();
    for (Path file : files) {
      try (FileTree.Directory holder = nativeTree.open(PathBytes.of(file.getParent()))) {
        FileTree.Status status = holder.status(F, PathBytes.of(file));
        met.add(new Met(PathBytes.of(file), status.device(), status.inode()));
      }
    }
    Path level180 = root.resolve("d/".repeat(180));
    Path moved = dir.resolve("moved");
    long before = openDescriptors();
    long[] most = {0};
    boolean[] movedYet = {false};
    FileTree tree = new HookedFileTree(nativeTree, (operation, name, path) -> {
      most[0] = Math.max(most[0], openDescriptors() - before);
      if (operation.equals("setLabel") && !movedYet[0]) {
        movedYet[0] = true;
        Files.move(level180, moved);
      }
    });
    List<String> failures = new ArrayList<>();
    Revisit.visit(tree, PathBytes.of(root), met,
        (holder, name, entry) -> holder.setLabel(name, LABEL.getBytes(StandardCharsets.US_ASCII), entry.path()),
        (path, e) -> failures.add(PathBytes.text(path) + ": " + e.getMessage()));

    assertEquals(List.of(), failures);
    assertTrue(movedYet[0], "level 180 moved during the visit");
    List<String> labels = new ArrayList<>();
    for (Path file : files) {
      Path now = file.startsWith(level180) ? moved.resolve(level180.relativize(file)) : file;
      labels.add(DiskLabels.get(now));
    }
    assertEquals(java.util.Collections.nCopies(files.size(), LABEL), labels, "each file, where it is now");
    assertTrue(most[0] <= Revisit.OPEN_LEVELS + 3, most[0] + " descriptors open at once");
    assertEquals(before, openDescriptors(), "none left open");
  }

  private static long openDescriptors() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
