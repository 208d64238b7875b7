package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.context.ContextEdit;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a directory's task throws outside the per-entry handling (a bug: a RuntimeException; the
 * JVM: an Error, out of memory most likely), on the relabel walk and on chcon -R's, on one worker
 * and on two. Each task completes through its completer whatever its visit did, so what it threw
 * was lost: the directory's subtree unwalked, nothing reported, the run's status success. Now a
 * RuntimeException is that directory's failure and the walk goes on; an Error stops the walk and
 * is the root's failure. The directory {@code bad} is made to throw as the walk opens it.
 */
class TaskFailureTest {
  private static final String NEW = "system_u:object_r:etc_t:s0";
  private static final byte[] BAD = "bad".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path dir;
  private Path tree;

  @BeforeEach
  void layout() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    for (String name : List.of("a/f", "bad/f", "c/f")) {
      Files.createDirectories(tree.resolve(name).getParent());
      Files.createFile(tree.resolve(name));
    }
  }

  /** The real tree, but opening {@code bad} throws {@code thrown}. */
  private static FileTree throwingAtBad(RuntimeException unchecked, Error error) {
    return new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("openChild") && Arrays.equals(name, BAD)) {
        if (unchecked != null) {
          throw unchecked;
        }
        throw error;
      }
    });
  }

  private RelabelReport relabel(int threads, FileTree fileTree) throws IOException {
    var matcher = TestPolicy.matcher(dir.resolve("policy"), tree + "(/.*)?  " + NEW);
    try (Relabeler relabeler = new Relabeler(matcher, java.util.Set.of(), RelabelOptions.defaults().withThreads(threads),
        fileTree, RelabelListener.NONE)) {
      return relabeler.run(List.of(tree));
    }
  }

  private RelabelReport chcon(int threads, FileTree fileTree) {
    ChconOptions options = ChconOptions.builder(ContextEdit.whole(NEW)).recurse(true).threads(threads).build();
    try (ContextChanger changer = new ContextChanger(options, fileTree, new ChconListener() {})) {
      return changer.run(List.of(tree));
    }
  }

  private static List<String> failures(RelabelReport report) {
    return report.failures().stream().map(f -> f.pathText() + ": " + f.message()).toList();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aBugInADirectorysTaskIsThatDirectorysFailureAndTheWalkGoesOn(int threads) throws Exception {
    RuntimeException bug = new IllegalStateException("thrown by the test");
    for (boolean chcon : new boolean[] {false, true}) {
      RelabelReport report = chcon ? chcon(threads, throwingAtBad(bug, null)) : relabel(threads, throwingAtBad(bug, null));
      String verb = chcon ? "chcon: " : "relabel: ";
      assertEquals(List.of(tree.resolve("bad") + ": internal error: " + bug), failures(report), verb);
      assertFalse(report.cancelled(), verb);
      assertEquals(NEW, DiskLabels.get(tree.resolve("a/f")), verb + "before it");
      assertEquals(NEW, DiskLabels.get(tree.resolve("c/f")), verb + "after it");
      DiskLabels.set(tree.resolve("a/f"), "old_u:old_r:old_t:s0");
      DiskLabels.set(tree.resolve("c/f"), "old_u:old_r:old_t:s0");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void anErrorInADirectorysTaskStopsTheWalkAndIsTheRootsFailure(int threads) throws Exception {
    Error error = new OutOfMemoryError("thrown by the test");
    for (boolean chcon : new boolean[] {false, true}) {
      RelabelReport report = chcon ? chcon(threads, throwingAtBad(null, error)) : relabel(threads, throwingAtBad(null, error));
      String verb = chcon ? "chcon: " : "relabel: ";
      assertEquals(List.of(tree + ": internal error: " + error), failures(report), verb);
      assertTrue(report.cancelled(), verb + "stopped");
      assertTrue(!report.succeeded(), verb);
    }
  }
}
