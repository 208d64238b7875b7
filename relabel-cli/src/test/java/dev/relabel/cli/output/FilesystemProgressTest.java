package dev.relabel.cli.output;

import dev.relabel.policy.PathBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.report.FilesystemProgress;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.report.RelabelReport;
import dev.relabel.walk.Relabeler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-filesystem progress lines across two mounts (two tmpfs the test mounts under a temp root):
 * each line names the mount being labelled, its entries done of the total its used inodes give,
 * a percentage and an ETA, and each walk ends with a line of its exact count. Needs root (mount).
 */
class FilesystemProgressTest {
  @TempDir Path dir;
  private final List<Path> mounts = new ArrayList<>();

  @AfterEach
  void unmount() throws Exception {
    for (Path mount : mounts) {
      AttrTrees.run(List.of("umount", mount.toString()), dir);
    }
  }

  private Path tmpfsWithFiles(String name, int files) throws Exception {
    Path mount = Files.createDirectories(dir.resolve("root").resolve(name));
    AttrTrees.check(List.of("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.toString()), dir);
    mounts.add(mount);
    AttrTrees.check(List.of("sh", "-c", "cd \"$1\" && seq -f f%g " + files + " | xargs touch", "sh", mount.toString()), dir);
    return mount;
  }

  @Test
  void eachMountHasItsOwnLinesWithPercentAndEta() throws Exception {
    Path first = tmpfsWithFiles("first", 5_000);
    Path second = tmpfsWithFiles("second", 3_000);
    Path policy = Files.writeString(dir.resolve("file_contexts"), "/.* system_u:object_r:default_t:s0\n");
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(policy));
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    try (FilesystemProgress progress = new FilesystemProgress(lines::add, Optional.empty(), Duration.ofMillis(1))) {
      RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(dir.resolve("root"));
      try (Relabeler relabeler = Relabeler.onDisk(matcher, options, progress)) {
        for (Path mount : List.of(first, second)) {
          progress.expect(PathBytes.absolute(mount), mount.toString());
          RelabelReport report = relabeler.run(List.of(mount));
          assertEquals(List.of(), report.failures());
          progress.completed(report);
        }
      }
    }
    List<String> all = List.copyOf(lines);
    assertTrue(all.contains(first + ": done, 5.0k entries, 5001 relabelled, 0 failed"), all::toString);
    assertTrue(all.contains(second + ": done, 3.0k entries, 3001 relabelled, 0 failed"), all::toString);
    for (Path mount : List.of(first, second)) {
      assertTrue(all.stream().anyMatch(line -> line.matches("Relabeling " + java.util.regex.Pattern.quote(mount.toString())
          + ": \\d+% \\(\\S+ of \\S+ entries(, ETA \\S+)?\\)")), all::toString);
    }
    // One filesystem's lines come before the other's.
    int lastOfFirst = -1;
    int firstOfSecond = Integer.MAX_VALUE;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).contains(first.toString())) {
        lastOfFirst = i;
      } else if (all.get(i).contains(second.toString())) {
        firstOfSecond = Math.min(firstOfSecond, i);
      }
    }
    assertTrue(lastOfFirst < firstOfSecond, all::toString);
  }

  /**
   * A bind mount of a directory of the filesystem it is mounted on (fixfiles -M labels each
   * filesystem through one in /tmp) is a mount's root too: its lines have a total and a
   * percentage, though its parent has its device; and they call it what the caller names it.
   */
  @Test
  void aBindMountOfItsOwnFilesystemHasAPercentageAndTheNameGiven() throws Exception {
    Path filesystem = tmpfsWithFiles("fs", 4_000);
    Path bound = Files.createDirectories(filesystem.resolve("bound"));
    AttrTrees.check(List.of("mount", "--bind", filesystem.toString(), bound.toString()), dir);
    mounts.add(0, bound);
    Path policy = Files.writeString(dir.resolve("file_contexts"), "/.* system_u:object_r:default_t:s0\n");
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(policy));
    ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    try (FilesystemProgress progress = new FilesystemProgress(lines::add, Optional.empty(), Duration.ofMillis(1))) {
      RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(bound);
      try (Relabeler relabeler = Relabeler.onDisk(matcher, options, progress)) {
        progress.expect(PathBytes.absolute(bound), "/fs");
        RelabelReport report = relabeler.run(List.of(bound));
        assertEquals(List.of(), report.failures());
        progress.completed(report);
      }
    }
    List<String> all = List.copyOf(lines);
    assertTrue(all.contains("/fs: done, 4.0k entries, 4002 relabelled, 0 failed"), all::toString);
    assertTrue(all.stream().anyMatch(line -> line.matches("Relabeling /fs: \\d+% \\(\\S+ of \\S+ entries(, ETA \\S+)?\\)")),
        all::toString);
  }
}
