package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.context.ContextEdit;
import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack {@code O_NOFOLLOW} and descriptor-relative calls exist for: while a walk runs, a
 * directory inside the tree is swapped, again and again, for a symlink to a directory outside it.
 * Whatever the walk meets, nothing outside the tree may change: it must never follow the link. Both
 * engines are attacked: {@link Relabeler} (every spec matches everything, outside the tree too) and
 * {@link ContextChanger} (chcon -R; each walk sets another context). Half the walks use the
 * {@code /proc/self/fd} fallback that kernels without getxattrat get.
 */
class SymlinkRaceTest {
  private static final String SENTINEL = "sentinel_u:sentinel_r:sentinel_t:s0";
  private static final String A = "system_u:object_r:a_t:s0";
  private static final int MAX_WALKS = 200;
  private static final long MAX_NANOS = 10_000_000_000L;

  @TempDir Path dir;

  /** The n-th walk of the tree (n = -1: the one after the attack, which must label it all A). */
  @FunctionalInterface
  private interface Walker {
    RelabelReport walk(int n, Path tree) throws IOException;
  }

  @Test
  @Timeout(120)
  void aDirectorySwappedForASymlinkMidWalkNeverLetsTheWalkOut() throws Exception {
    // Every spec matches everything, outside the tree too: a followed link would be relabelled.
    LabelMatcher a = TestPolicy.matcher(dir.resolve("policy-a"), "/.*  " + A);
    LabelMatcher b = TestPolicy.matcher(dir.resolve("policy-b"), "/.*  system_u:object_r:b_t:s0");
    attack("SymlinkRaceTest", (n, tree) -> {
      RelabelOptions options = n < 0 ? RelabelOptions.defaults().withForce(true)
          : RelabelOptions.defaults().withForce(true).withThreads(1 + n % 2);
      return Relabeler.onDisk(n < 0 || n % 2 == 0 ? a : b, options, RelabelListener.NONE).run(List.of(tree));
    });
  }

  @Test
  @Timeout(120)
  void chconRecursiveNeverFollowsTheSwappedSymlinkEither() throws Exception {
    ContextEdit a = ContextEdit.whole(A);
    ContextEdit b = ContextEdit.fields().type("b_t").build();
    attack("ChconSymlinkRaceTest", (n, tree) -> {
      ChconOptions options = n < 0 ? ChconOptions.builder(a).recurse(true).build()
          : ChconOptions.builder(n % 2 == 0 ? a : b).recurse(true).threads(1 + n % 2).build();
      try (ContextChanger changer = ContextChanger.onDisk(options, ChconListener.NONE)) {
        return changer.run(List.of(tree));
      }
    });
  }

  private void attack(String name, Walker walker) throws Exception {
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Path outside = Files.createDirectory(dir.resolve("outside"));
    List<Path> outsiders = new ArrayList<>(List.of(outside));
    Path outsideSub = Files.createDirectory(outside.resolve("sub"));
    outsiders.add(outsideSub);
    for (int i = 0; i < 20; i++) {
      outsiders.add(Files.createFile(outside.resolve("secret" + i)));
      outsiders.add(Files.createFile(outsideSub.resolve("deeper" + i)));
    }
    for (Path p : outsiders) {
      DiskLabels.set(p, SENTINEL);
    }
    // The tree: a few ordinary directories, and swap/real, the one that keeps changing.
    for (int d = 0; d < 4; d++) {
      Path sub = Files.createDirectories(tree.resolve("d" + d));
      for (int f = 0; f < 5; f++) {
        Files.createFile(sub.resolve("f" + f));
      }
    }
    Path swap = Files.createDirectory(tree.resolve("swap"));
    Path real = Files.createDirectory(swap.resolve("real"));
    for (int f = 0; f < 5; f++) {
      Files.createFile(real.resolve("f" + f));
    }
    Files.createDirectory(real.resolve("sub"));
    Path aside = swap.resolve("aside");
    Path parked = swap.resolve("parked");

    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong swaps = new AtomicLong();
    AtomicReference<Throwable> swapperFailed = new AtomicReference<>();
    Thread swapper = new Thread(() -> {
      try {
        while (!stop.get()) {
          Files.move(real, aside, StandardCopyOption.ATOMIC_MOVE);
          Files.createSymbolicLink(real, outside);
          Files.move(real, parked, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          Files.move(aside, real, StandardCopyOption.ATOMIC_MOVE);
          swaps.incrementAndGet();
        }
      } catch (IOException | RuntimeException e) {
        swapperFailed.set(e);
      }
    }, "swapper");

    boolean xattrAt = XattrFallback.usesXattrAt();
    int walks = 0;
    long failures = 0;
    long start = System.nanoTime();
    swapper.start();
    try {
      while (walks < MAX_WALKS && System.nanoTime() - start < MAX_NANOS && swapperFailed.get() == null) {
        XattrFallback.useXattrAt(xattrAt && walks % 4 < 2);
        RelabelReport report = walker.walk(walks, tree);
        failures += report.failures().size();
        walks++;
      }
    } finally {
      stop.set(true);
      swapper.join();
      XattrFallback.useXattrAt(xattrAt);
    }
    if (swapperFailed.get() != null) {
      throw new AssertionError("the swapper failed", swapperFailed.get());
    }
    assertTrue(swaps.get() > 100, "the swapper should have swapped many times: " + swaps.get());
    assertTrue(walks >= 10, "too few walks: " + walks);

    Map<String, String> changed = new TreeMap<>();
    for (Path p : outsiders) {
      String label = DiskLabels.get(p);
      if (!SENTINEL.equals(label)) {
        changed.put(p.toString(), label);
      }
    }
    assertEquals(Map.of(), changed, "labels outside the tree changed (" + walks + " walks, " + swaps.get()
        + " swaps, " + failures + " failures met)");
    System.out.println(name + ": " + walks + " walks, " + swaps.get() + " swaps, " + failures
        + " failures met (entries swapped away or found a symlink)");

    // The tree, quiet now, is labelled whole by one more walk.
    RelabelReport last = walker.walk(-1, tree);
    assertEquals(List.of(), last.failures());
    try (Stream<Path> inTree = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) inTree::iterator) {
        assertEquals(A, DiskLabels.get(p), p.toString());
      }
    }
  }
}
