package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The descriptors the walker holds at once follow the depth of the tree, not its width: a
 * directory's descriptor is closed once its last subdirectory has opened its own. The JVM's open
 * descriptors are counted ({@code /proc/self/fd}) before every directory is opened or read.
 */
class DescriptorBoundTest {
  private static final String CONTEXT = "system_u:object_r:etc_t:s0";
  private static final int WIDTH = 1_000;
  private static final int DEPTH = 300;

  @TempDir static Path dir;
  private static LabelMatcher matcher;
  private static Path wide;
  private static Path deep;

  @BeforeAll
  static void trees() throws IOException {
    matcher = TestPolicy.matcher(dir.resolve("policy"), "/.*  " + CONTEXT);
    wide = Files.createDirectory(dir.resolve("wide"));
    for (int d = 0; d < WIDTH; d++) {
      Path sub = Files.createDirectory(wide.resolve("d" + d));
      for (int f = 0; f < 3; f++) {
        Files.createFile(sub.resolve("f" + f));
      }
    }
    deep = Files.createDirectory(dir.resolve("deep"));
    Path at = deep;
    for (int d = 0; d < DEPTH; d++) {
      // A sibling directory at each level: its parent stays open until it too has been opened.
      Files.createDirectory(at.resolve("e"));
      at = Files.createDirectory(at.resolve("d"));
      Files.createFile(at.resolve("f1"));
      Files.createFile(at.resolve("f2"));
    }
  }

  private static long openDescriptors() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The JVM's open descriptors on something under {@code under}: the walker's, not the JVM's own. */
  private static long openDescriptorsUnder(Path under) {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).startsWith(under);
        } catch (IOException e) {
          return false; // closed meanwhile (the listing's own descriptor, say)
        }
      }).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Walks {@code root} and returns the most descriptors the JVM had open at once, above those open
   * before (so the JVM's own count too: the bound is generous).
   */
  private static long peakDuring(Path root, int threads, long entries) {
    long before = openDescriptors();
    AtomicLong peak = new AtomicLong(before);
    FileTree counting = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("openChild") || operation.equals("entries") || operation.equals("open")) {
        peak.accumulateAndGet(openDescriptors(), Math::max);
      }
    });
    RelabelReport report = new Relabeler(matcher, Set.of(), RelabelOptions.defaults().withThreads(threads)
        .withForce(true), counting, RelabelListener.NONE).run(List.of(root));
    assertEquals(List.of(), report.failures());
    assertEquals(entries, report.visited());
    assertEquals(0, openDescriptorsUnder(root), "descriptors of the tree left open after the walk");
    return peak.get() - before;
  }

  @ParameterizedTest(name = "-T {0}")
  @ValueSource(ints = {1, 4})
  void aWideTreeHoldsFewDescriptors(int threads) {
    long peak = peakDuring(wide, threads, 1 + WIDTH * 4L);
    System.out.println("DescriptorBoundTest: " + WIDTH + " subdirectories, -T " + threads + ": peak " + peak
        + " descriptors above the baseline");
    assertTrue(peak < 64, "a walk of " + WIDTH + " subdirectories held " + peak + " descriptors at once");
  }

  @Test
  void aDeepTreeHoldsNoMoreThanItsDepth() {
    long peak = peakDuring(deep, 2, 1 + DEPTH * 4L);
    System.out.println("DescriptorBoundTest: depth " + DEPTH + ": peak " + peak + " descriptors above the baseline");
    assertTrue(peak < 64 + DEPTH, "a walk " + DEPTH + " deep held " + peak + " descriptors at once");
  }
}
