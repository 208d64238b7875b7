package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.context.ContextEdit;
import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library entry point for chcon, {@link ContextChanger}, on real files: what Java callers (a
 * container runtime preparing a volume) see. Labels are read back with getfattr.
 */
class ContextChangerTest {
  private static final String VOLUME = "system_u:object_r:container_file_t:s0:c10,c20";

  @TempDir
  Path dir;
  private Path volume;
  private Path outside;

  @BeforeEach
  void tree() throws Exception {
    AttrTrees.requireTools(false);
    volume = Files.createDirectories(dir.resolve("volume"));
    outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "");
    AttrTrees.setLabel(outside.resolve("secret"), "system_u:object_r:shadow_t:s0", dir);
    AttrTrees.setLabel(outside, "system_u:object_r:etc_t:s0", dir);
    for (int d = 0; d < 20; d++) {
      Path sub = Files.createDirectories(volume.resolve("d" + d + "/e"));
      for (int f = 0; f < 10; f++) {
        Files.writeString(sub.resolve("f" + f), "");
      }
    }
    Files.createSymbolicLink(volume.resolve("d0/out-dir"), outside);
    Files.createSymbolicLink(volume.resolve("d0/out-file"), outside.resolve("secret"));
  }

  private RelabelReport run(ChconOptions options, List<RelabelReport.Change> changes, Path... files) {
    ChconListener listener = new ChconListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        changes.add(change);
      }
    };
    try (ContextChanger changer = ContextChanger.onDisk(options, listener)) {
      return changer.run(List.of(files));
    }
  }

  @Test
  void labelsTheWholeTreeOnceAndNothingOutsideIt() throws Exception {
    ChconOptions options = ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).threads(4).build();
    List<RelabelReport.Change> changes = Collections.synchronizedList(new ArrayList<>());
    RelabelReport first = run(options, changes, volume);
    long entries = AttrTrees.entries(volume, dir).size();
    assertEquals(entries, first.visited());
    assertEquals(entries, first.relabeled());
    assertEquals(entries, changes.size());
    assertTrue(first.succeeded(), first::toString);
    Map<String, String> labels = AttrTrees.labels(volume, dir);
    assertEquals(Map.of(AttrTrees.hex(VOLUME), entries), countValues(labels));
    // The symlinks were labelled themselves; what they point to was not touched.
    assertEquals("system_u:object_r:shadow_t:s0", AttrTrees.label(outside.resolve("secret"), dir));
    assertEquals("system_u:object_r:etc_t:s0", AttrTrees.label(outside, dir));

    changes.clear();
    RelabelReport second = run(options, changes, volume);
    assertEquals(entries, second.visited());
    assertEquals(0, second.relabeled());
    assertEquals(List.of(), changes);
  }

  /** One changer, two runs: its workers count each run on its own (they keep counters per run). */
  @Test
  void oneChangerCountsEachRunOnItsOwn() throws Exception {
    ChconOptions options = ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).threads(4).build();
    long part = AttrTrees.entries(volume.resolve("d1"), dir).size();
    long entries = AttrTrees.entries(volume, dir).size();
    try (ContextChanger changer = ContextChanger.onDisk(options, new ChconListener() {})) {
      RelabelReport first = changer.run(List.of(volume.resolve("d1")));
      RelabelReport second = changer.run(List.of(volume));
      assertEquals(List.of(part, part), List.of(first.visited(), first.relabeled()));
      assertEquals(List.of(entries, entries - part), List.of(second.visited(), second.relabeled()));
    }
  }

  /**
   * A directory split into ranges across workers (TreeTask.ENTRIES_PER_TASK): each entry changed
   * once, and the directory itself, which chcon labels once its entries are listed, once too.
   */
  @Test
  void aLargeDirectoryIsLabelledOnceWithAllItsEntries() throws Exception {
    Path big = Files.createDirectories(volume.resolve("big"));
    for (int i = 0; i < 3 * TreeTask.ENTRIES_PER_TASK + 5; i++) {
      if (i % 50 == 0) {
        Files.createDirectories(big.resolve("d" + i));
        Files.writeString(big.resolve("d" + i).resolve("f"), "");
      } else {
        Files.writeString(big.resolve("f" + i), "");
      }
    }
    ChconOptions options = ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).threads(4).build();
    List<RelabelReport.Change> changes = Collections.synchronizedList(new ArrayList<>());
    RelabelReport report = run(options, changes, volume);
    long entries = AttrTrees.entries(volume, dir).size();
    assertEquals(entries, report.visited());
    assertEquals(entries, changes.size());
    assertEquals(entries, changes.stream().map(c -> c.pathText()).distinct().count(), "an entry changed twice");
    assertTrue(changes.stream().anyMatch(c -> c.pathText().equals(big.toString())), "the directory itself");
    assertEquals(Map.of(AttrTrees.hex(VOLUME), entries), countValues(AttrTrees.labels(volume, dir)));
  }

  /**
   * A file of several names is written once: each name's label is read at its visit, after the
   * visit of another name may have written it. (A label read with the listing would be stale by
   * then, which is why librelabel's read-ahead leaves such a file to its visit; with that rule
   * taken out, a chcon that read ahead failed this test. chcon does not read ahead: the status
   * read with each label cost more than the calls it saved, RESULTS.md "Nineteenth pass".) Two
   * names in one directory and one in another, at one worker and at four.
   */
  @Test
  void aFileOfSeveralNamesIsWrittenOnce() throws Exception {
    Path file = volume.resolve("d2/e/f1");
    Files.createLink(volume.resolve("d2/e/second-name"), file);
    Files.createLink(volume.resolve("d3/third-name"), file);
    long entries = AttrTrees.entries(volume, dir).size();
    for (int threads : new int[] {1, 4}) {
      String context = VOLUME.replace("c20", "c2" + threads);
      ChconOptions options = ChconOptions.builder(ContextEdit.whole(context)).recurse(true).threads(threads).build();
      List<RelabelReport.Change> changes = Collections.synchronizedList(new ArrayList<>());
      RelabelReport report = run(options, changes, volume);
      assertEquals(entries, report.visited());
      assertEquals(entries - 2, report.relabeled(), () -> "written more than once: " + changes.stream()
          .map(RelabelReport.Change::pathText).filter(p -> p.contains("name") || p.endsWith("d2/e/f1")).toList());
      assertEquals(context, AttrTrees.label(file, dir));
    }
  }

  @Test
  void fieldEditsKeepTheOtherFieldsAndFailOnUnlabeledEntries() throws Exception {
    Path file = volume.resolve("d1/e/f1");
    AttrTrees.setLabel(file, "user_u:object_r:tmp_t:s0:c1", dir);
    List<ChconProblem> problems = Collections.synchronizedList(new ArrayList<>());
    ChconListener listener = new ChconListener() {
      @Override
      public void failed(ChconProblem problem) {
        problems.add(problem);
      }
    };
    ChconOptions options = ChconOptions.builder(ContextEdit.fields().type("container_file_t").build())
        .recurse(true).threads(2).build();
    RelabelReport report;
    try (ContextChanger changer = ContextChanger.onDisk(options, listener)) {
      report = changer.run(List.of(volume.resolve("d1")));
    }
    assertEquals("user_u:object_r:container_file_t:s0:c1", AttrTrees.label(file, dir));
    // d1, d1/e and ten files; all but one unlabeled.
    assertEquals(12, report.visited());
    assertEquals(1, report.relabeled());
    assertEquals(11, report.failures().size());
    assertEquals(11, problems.size());
    assertTrue(problems.stream().allMatch(p -> p.kind() == ChconProblem.Kind.UNLABELED), problems::toString);
  }

  @Test
  void withoutRecursionASymlinkGivenIsFollowedUnlessAskedNotTo() throws Exception {
    Path link = volume.resolve("d0/out-file");
    ChconOptions follow = ChconOptions.builder(ContextEdit.whole(VOLUME)).build();
    assertTrue(follow.dereference());
    assertTrue(run(follow, new ArrayList<>(), link).succeeded());
    assertEquals(VOLUME, AttrTrees.label(outside.resolve("secret"), dir));
    assertNull(AttrTrees.label(link, dir));
    ChconOptions itself = follow.toBuilder().dereference(false).build();
    assertTrue(run(itself, new ArrayList<>(), link).succeeded());
    assertEquals(VOLUME, AttrTrees.label(link, dir));
  }

  /**
   * With -R --preserve-root, a "/" that cannot be stat'd leaves nothing to tell a FILE from the
   * system root by: chcon says so ("failed to get attributes of '/'") and stops before any FILE,
   * where the guard used to be dropped and the walk gone on. The stat of "/" alone is made to fail.
   */
  @Test
  void aSystemRootThatCannotBeStatdStopsARecursionThatGuardsIt() throws Exception {
    String before = AttrTrees.label(volume.resolve("d1/e/f1"), dir);
    FileTree failingSlash = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("open") && java.util.Arrays.equals(path, new byte[] {'/'})) {
        throw dev.relabel.nativeio.NativeIoException.of("open", path, dev.relabel.nativeio.Errno.EACCES);
      }
    });
    List<ChconProblem> problems = Collections.synchronizedList(new ArrayList<>());
    ChconListener listener = new ChconListener() {
      @Override
      public void failed(ChconProblem problem) {
        problems.add(problem);
      }
    };
    ChconOptions guarded = ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).preserveRoot(true).build();
    RelabelReport report;
    try (ContextChanger changer = new ContextChanger(guarded, failingSlash, listener)) {
      report = changer.run(List.of(volume));
    }
    assertEquals(List.of(ChconProblem.Kind.ROOT_UNREADABLE), problems.stream().map(ChconProblem::kind).toList());
    assertEquals("failed to get attributes of /: " + dev.relabel.nativeio.Errno.describe(dev.relabel.nativeio.Errno.EACCES),
        report.failures().get(0).message());
    assertEquals(0, report.visited());
    assertEquals(before, AttrTrees.label(volume.resolve("d1/e/f1"), dir));

    // Without the guard "/" is never stat'd, and the tree is labelled.
    try (ContextChanger changer = new ContextChanger(guarded.toBuilder().preserveRoot(false).build(), failingSlash,
        listener)) {
      assertTrue(changer.run(List.of(volume)).succeeded());
    }
    assertEquals(VOLUME, AttrTrees.label(volume.resolve("d1/e/f1"), dir));
  }

  /**
   * A directory cycle made while chcon -R runs: the volume bound onto its subdirectory {@code d1}
   * after d1's status was read, before d1 was opened. Beneath the bind the
   * walk meets d1's own inode again, at {@code d1/d1}: a cycle, reported and not entered, so that
   * d1's own entries are reached by no name (the volume's other subdirectories, shown beneath the
   * bind too, are labelled twice, as chcon's fts does).
   */
  @Test
  void aDirectoryCycleMadeDuringTheWalkIsReportedAndNotEntered() throws Exception {
    Path d1 = volume.resolve("d1");
    List<Path> mounts = new ArrayList<>();
    FileTree binding = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.startsWith("openChild") && new String(name, java.nio.charset.StandardCharsets.ISO_8859_1)
          .equals("d1") && mounts.isEmpty()) {
        mounts.add(d1);
        try {
          AttrTrees.mount(List.of("mount", "--bind", volume.toString(), d1.toString()), dir);
        } catch (InterruptedException e) {
          throw new java.io.IOException(e);
        }
      }
    });
    List<ChconProblem> problems = Collections.synchronizedList(new ArrayList<>());
    ChconListener listener = new ChconListener() {
      @Override
      public void failed(ChconProblem problem) {
        problems.add(problem);
      }
    };
    ChconOptions options = ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).threads(2).build();
    try (ContextChanger changer = new ContextChanger(options, binding, listener)) {
      changer.run(List.of(volume));
    } finally {
      AttrTrees.unmountAll(mounts, dir);
    }
    assertEquals(List.of(d1.toString()), mounts.stream().map(Path::toString).toList());
    assertEquals(List.of(ChconProblem.Kind.DIRECTORY_CYCLE + " " + d1.resolve("d1")),
        problems.stream().map(p -> p.kind() + " " + new String(p.path(), java.nio.charset.StandardCharsets.ISO_8859_1))
            .toList());
    assertNull(AttrTrees.label(d1.resolve("e/f1"), dir), "d1's own entries: beneath the cycle, reached by no name");
    assertEquals(VOLUME, AttrTrees.label(volume.resolve("d2/e/f1"), dir));
  }

  @Test
  void optionsRefuseWhatChconRefuses() {
    assertThrows(IllegalArgumentException.class,
        () -> ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).dereference(true).build());
    assertThrows(IllegalStateException.class, () -> ContextEdit.fields().build());
    assertThrows(IllegalArgumentException.class, () -> ChconOptions.builder(ContextEdit.whole(VOLUME)).threads(-1).build());
    // With -R a symlink is not followed unless asked, which is refused.
    assertEquals(false, ChconOptions.builder(ContextEdit.whole(VOLUME)).recurse(true).build().dereference());
  }

  private static Map<String, Long> countValues(Map<String, String> labels) {
    Map<String, Long> counts = new java.util.TreeMap<>();
    labels.values().forEach(v -> counts.merge(v, 1L, Long::sum));
    return counts;
  }
}
