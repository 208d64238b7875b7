package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.Errno;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Entries that vanish or appear while the walk runs, on real files: as soon as the walker labels
 * the first entry of {@code churn/} (so the directory has been listed), every other entry there —
 * 50 files and a directory with files of its own — is deleted, and new files appear in
 * {@code churn/} and in a directory not yet walked. The vanished entries the walker had listed
 * are reported with ENOENT (nothing else fails, and a vanished directory is reported once, not
 * descended); every entry that stayed is labelled; an entry that appeared has the new label or
 * none, never another; and a second run labels what appeared, without a failure.
 */
@Timeout(120)
class VanishingEntriesTest {
  private static final String NEW = "system_u:object_r:new_t:s0";

  @TempDir Path dir;

  @ParameterizedTest(name = "-T {0}")
  @ValueSource(ints = {1, 2})
  void vanishedEntriesAreReportedAndTheWalkGoesOn(int threads) throws Exception {
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Path churn = Files.createDirectory(tree.resolve("churn"));
    List<Path> victims = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      victims.add(Files.createFile(churn.resolve("v" + i)));
    }
    Path vdir = Files.createDirectory(churn.resolve("vdir"));
    victims.add(vdir);
    for (int i = 0; i < 5; i++) {
      Files.createFile(vdir.resolve("inner" + i));
    }
    List<Path> stayed = new ArrayList<>(List.of(tree, churn));
    for (String name : List.of("a", "b", "z-later")) {
      Path sub = Files.createDirectory(tree.resolve(name));
      stayed.add(sub);
      for (int i = 0; i < 20; i++) {
        stayed.add(Files.createFile(sub.resolve("f" + i)));
      }
    }
    List<Path> appeared = List.of(churn.resolve("appeared"), tree.resolve("z-later/appeared"),
        tree.resolve("appeared-at-top"));

    byte[] churnPrefix = (churn + "/").getBytes(StandardCharsets.ISO_8859_1);
    AtomicBoolean done = new AtomicBoolean();
    List<Path> kept = new ArrayList<>();
    HookedFileTree hooked = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("label") && startsWith(path, churnPrefix) && done.compareAndSet(false, true)) {
        Path first = Path.of(new String(path, StandardCharsets.ISO_8859_1));
        kept.add(first);
        churnNow(victims, first, appeared);
      }
    });
    LabelMatcher matcher = TestPolicy.matcher(dir.resolve("policy"), tree + "(/.*)?  " + NEW);
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads);
    RelabelReport report = new Relabeler(matcher, Set.of(), options, hooked, RelabelListener.NONE).run(List.of(tree));
    assertTrue(done.get(), "the churn should have happened");

    TreeSet<String> gone = new TreeSet<>();
    for (Path victim : victims) {
      if (!kept.contains(victim)) {
        gone.add(victim.toString());
      }
    }
    TreeSet<String> failed = new TreeSet<>();
    for (RelabelReport.Failure failure : report.failures()) {
      assertEquals(Errno.ENOENT, failure.errno(), failure.toString());
      failed.add(failure.pathText());
    }
    assertTrue(gone.containsAll(failed), "only vanished entries fail: " + failed);
    assertEquals(failed.size(), report.failures().size(), "each vanished entry reported once: " + report.failures());
    assertTrue(!failed.isEmpty(), "the walker had listed the vanished entries, so some must have failed");

    stayed.addAll(kept);
    for (Path p : stayed) {
      assertEquals(NEW, DiskLabels.get(p), p.toString());
    }
    for (Path p : appeared) {
      String label = DiskLabels.get(p);
      assertTrue(label == null || label.equals(NEW), p + ": " + label);
    }

    RelabelReport again = Relabeler.onDisk(matcher, options, RelabelListener.NONE).run(List.of(tree));
    assertEquals(List.of(), again.failures());
    Map<String, String> notNew = new TreeMap<>();
    try (Stream<Path> all = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        if (!NEW.equals(DiskLabels.get(p))) {
          notNew.put(p.toString(), DiskLabels.get(p));
        }
      }
    }
    assertEquals(Map.of(), notNew, "a second run finishes the job");
  }

  private static boolean startsWith(byte[] path, byte[] prefix) {
    return path.length > prefix.length && java.util.Arrays.equals(path, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Deletes every victim but the entry being labelled, and creates the new entries. */
  private static void churnNow(List<Path> victims, Path first, List<Path> appeared) throws IOException {
    for (Path victim : victims) {
      if (victim.equals(first)) {
        continue;
      }
      try (Stream<Path> inside = Files.walk(victim)) {
        for (Path p : (Iterable<Path>) inside.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
    for (Path p : appeared) {
      Files.createFile(p);
    }
  }
}
