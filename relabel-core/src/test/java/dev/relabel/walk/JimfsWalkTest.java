package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PathBytes;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.nativeio.TestErrno;
import dev.relabel.policy.FileType;
import dev.relabel.policy.Spec;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The walker's own rules, on an in-memory tree ({@link JimfsFileTree}): which entries it visits,
 * labels and leaves alone, how options change that, and that its results do not depend on the
 * number of workers. Labels are decided by a real matcher over a small policy.
 */
class JimfsWalkTest {
  private static final String ROOT = "system_u:object_r:root_t:s0";
  private static final String OLD = "staff_u:staff_r:tmp_t:s0-s0:c1";
  private static final String NOT_A_CONTEXT = "garbage";

  @TempDir static Path policyDir;
  private static LabelMatcher matcher;

  private FileSystem fs;
  private JimfsFileTree tree;

  @BeforeAll
  static void compilePolicy() throws IOException {
    matcher = TestPolicy.matcher(policyDir,
        "/  system_u:object_r:root_t:s0",
        "/tree(/.*)?  system_u:object_r:default_t:s0",
        "/tree/etc(/.*)?  system_u:object_r:etc_t:s0",
        "/tree/bin(/.*)?  --  system_u:object_r:bin_t:s0",
        "/tree/var/log(/.*)?  system_u:object_r:var_log_t:s0",
        "/tree/none(/.*)?  <<none>>",
        "/tree/none/inner(/.*)?  system_u:object_r:inner_t:s0");
  }

  @BeforeEach
  void newFileSystem() {
    fs = JimfsFileTree.newFileSystem();
    tree = new JimfsFileTree(fs);
  }

  @AfterEach
  void everyDirectoryClosed() throws IOException {
    assertEquals(0, tree.openDirectories(), "directories left open after the walk");
    fs.close();
  }

  /** OLD with another type: what a type-only change makes of OLD. */
  private static String typed(String type) {
    return "staff_u:staff_r:" + type + ":s0-s0:c1";
  }

  private RelabelReport run(RelabelOptions options, RecordingListener listener, String... roots) {
    return run(tree, options, listener, roots);
  }

  private static RelabelReport run(FileTree fileTree, RelabelOptions options, RecordingListener listener,
      String... roots) {
    Relabeler relabeler = new Relabeler(matcher, Set.of(), options, fileTree, listener);
    return relabeler.run(Stream.of(roots).map(Path::of).toList());
  }

  // ---------------------------------------------------------------------------------------------
  // Trees

  private Path mkdir(String path) throws IOException {
    return Files.createDirectories(fs.getPath(path));
  }

  private Path file(String path, String label) throws IOException {
    Path p = fs.getPath(path);
    Files.createDirectories(p.getParent());
    Files.createFile(p);
    if (label != null) {
      JimfsFileTree.setLabelOf(p, label);
    }
    return p;
  }

  /**
   * A small tree, every entry labelled OLD except where noted:
   *
   * <pre>
   * /tree/etc/passwd, /tree/etc/sub/conf, /tree/etc/unlabeled (no label)
   * /tree/etc/escape -> /outside   (a symlink to a directory outside the tree)
   * /tree/bin/tool, /tree/bin/lnk -> tool
   * /tree/var/log/syslog
   * /tree/none/file, /tree/none/inner/deep
   * /outside/secret
   * </pre>
   */
  private void smallTree() throws IOException {
    for (String dir : List.of("/tree", "/tree/etc", "/tree/etc/sub", "/tree/bin", "/tree/var", "/tree/var/log",
        "/tree/none", "/tree/none/inner", "/outside")) {
      JimfsFileTree.setLabelOf(mkdir(dir), OLD);
    }
    for (String file : List.of("/tree/etc/passwd", "/tree/etc/sub/conf", "/tree/bin/tool", "/tree/var/log/syslog",
        "/tree/none/file", "/tree/none/inner/deep", "/outside/secret")) {
      file(file, OLD);
    }
    file("/tree/etc/unlabeled", null);
    JimfsFileTree.setLabelOf(Files.createSymbolicLink(fs.getPath("/tree/etc/escape"), fs.getPath("/outside")), OLD);
    JimfsFileTree.setLabelOf(Files.createSymbolicLink(fs.getPath("/tree/bin/lnk"), fs.getPath("tool")), OLD);
  }

  /** Every entry under (and including) each of {@code roots}, by path, with its label or "-". */
  private Map<String, String> labels(String... roots) throws IOException {
    Map<String, String> labels = new TreeMap<>();
    for (String root : roots) {
      try (Stream<Path> paths = Files.walk(fs.getPath(root))) {
        for (Path p : (Iterable<Path>) paths::iterator) {
          String label = JimfsFileTree.labelOf(p);
          labels.put(p.toString(), label == null ? "-" : label);
        }
      }
    }
    return labels;
  }

  private String label(String path) throws IOException {
    return JimfsFileTree.labelOf(fs.getPath(path));
  }

  /** The small tree's labels after a full default run. */
  private static Map<String, String> expectedAfterFullRun() {
    Map<String, String> expected = new TreeMap<>();
    expected.put("/tree", typed("default_t"));
    expected.put("/tree/etc", typed("etc_t"));
    expected.put("/tree/etc/passwd", typed("etc_t"));
    expected.put("/tree/etc/sub", typed("etc_t"));
    expected.put("/tree/etc/sub/conf", typed("etc_t"));
    expected.put("/tree/etc/unlabeled", "system_u:object_r:etc_t:s0");
    expected.put("/tree/etc/escape", typed("etc_t"));
    expected.put("/tree/bin", typed("default_t"));
    expected.put("/tree/bin/tool", typed("bin_t"));
    expected.put("/tree/bin/lnk", typed("default_t"));
    expected.put("/tree/var", typed("default_t"));
    expected.put("/tree/var/log", typed("var_log_t"));
    expected.put("/tree/var/log/syslog", typed("var_log_t"));
    expected.put("/tree/none", OLD);
    expected.put("/tree/none/file", OLD);
    expected.put("/tree/none/inner", typed("inner_t"));
    expected.put("/tree/none/inner/deep", typed("inner_t"));
    expected.put("/outside", OLD);
    expected.put("/outside/secret", OLD);
    return expected;
  }

  // ---------------------------------------------------------------------------------------------
  // The basic walk

  /**
   * A root is labelled on the caller's thread (a long -f list of files then wakes no worker per
   * path); everything beneath it on the relabeler's own workers, never on the common pool.
   */
  @Test
  void rootsOnTheCallerAndWhatLiesBeneathOnTheRelabelersWorkers() throws IOException {
    smallTree();
    Map<String, String> threadByPath = new ConcurrentHashMap<>();
    RecordingListener listener = new RecordingListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        threadByPath.put(new String(change.path(), java.nio.charset.StandardCharsets.ISO_8859_1),
            Thread.currentThread().getName());
        super.changed(change);
      }
    };
    RelabelReport report = run(RelabelOptions.defaults().withThreads(2), listener, "/tree/etc/passwd", "/tree/var");

    assertEquals(List.of(), report.failures());
    String caller = Thread.currentThread().getName();
    assertEquals(caller, threadByPath.get("/tree/etc/passwd"));
    assertEquals(caller, threadByPath.get("/tree/var"));
    for (String below : List.of("/tree/var/log", "/tree/var/log/syslog")) {
      String thread = threadByPath.get(below);
      assertTrue(thread != null && thread.startsWith("ForkJoinPool-") && !thread.contains("commonPool"),
          below + " labelled on " + thread);
    }
  }

  @Test
  void labelsEveryEntryByItsSpecAndFollowsNoSymlink() throws IOException {
    smallTree();
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(RelabelOptions.defaults(), listener, "/tree");

    assertEquals(expectedAfterFullRun(), labels("/tree", "/outside"));
    assertEquals(List.of(), report.failures());
    assertEquals(17, report.visited(), report.toString());
    assertEquals(2, report.unmatched(), "the <<none>> entries: " + report);
    assertEquals(15, report.relabeled(), report.toString());
    assertEquals(15, listener.changes.size());
    assertTrue(listener.changes.stream().allMatch(RelabelReport.Change::applied));
    assertTrue(listener.changeLines().contains("/tree/etc/unlabeled: null -> system_u:object_r:etc_t:s0"),
        listener.changeLines().toString());
    assertFalse(report.cancelled());
    assertTrue(report.succeeded());

    // A second run has nothing left to do.
    RelabelReport again = run(RelabelOptions.defaults(), new RecordingListener(), "/tree");
    assertEquals(0, again.relabeled(), again.toString());
    assertEquals(17, again.visited());
  }

  @Test
  void progressCountsTheEntriesThePolicyGivesAContextAsSetfilesDashPDoes() throws IOException {
    // setfiles -p counts an entry once its lookup found a context; the entries under
    // /tree/none (<<none>>) are walked, not counted.
    for (String dir : List.of("/tree/none", "/tree/etc")) {
      Files.createDirectories(fs.getPath(dir));
    }
    for (int i = 0; i < 3000; i++) {
      Files.createFile(fs.getPath("/tree/none/f" + i));
    }
    for (int i = 0; i < 1100; i++) {
      Files.createFile(fs.getPath("/tree/etc/f" + i));
    }
    AtomicInteger ticked = new AtomicInteger();
    RecordingListener listener = new RecordingListener() {
      @Override
      public void progress(long entries) {
        ticked.addAndGet((int) entries);
      }
    };
    RelabelReport report = run(RelabelOptions.defaults().withDryRun(true), listener, "/tree");
    assertEquals(4103, report.visited(), report.toString());
    assertEquals(1102, report.labelled(), "/tree, /tree/etc and its files: " + report);
    assertEquals(1024, ticked.get(), "one tick of 1024 among the 1,102 entries with a context");
  }

  @Test
  void theTreeRefusesToOpenSymlinksAsTheNativeOneDoes() throws IOException {
    smallTree();
    try (FileTree.Directory etc = tree.open(PathBytes.fromLatin1("/tree/etc"))) {
      NativeIoException e = assertThrows(NativeIoException.NotFollowedException.class,
          () -> etc.openChild(PathBytes.fromLatin1("escape"), PathBytes.fromLatin1("/tree/etc/escape")));
      assertEquals(Errno.ELOOP, e.errno());
      assertThrows(NativeIoException.NotFollowedException.class,
          () -> etc.openChild(PathBytes.fromLatin1("passwd"), PathBytes.fromLatin1("/tree/etc/passwd")));
      assertThrows(NativeIoException.NoSuchEntryException.class,
          () -> etc.openChild(PathBytes.fromLatin1("gone"), PathBytes.fromLatin1("/tree/etc/gone")));
      assertEquals(FileType.SYMLINK, etc.status(PathBytes.fromLatin1("escape"), new byte[0]).type());
      assertEquals(FileType.DIRECTORY, etc.status(new byte[0], new byte[0]).type());
    }
    assertThrows(NativeIoException.NotFollowedException.class, () -> tree.open(PathBytes.fromLatin1("/tree/etc/escape")));
  }

  // ---------------------------------------------------------------------------------------------
  // Determinism

  private static final String[] RANDOM_LABELS = {
    null, OLD, "system_u:object_r:etc_t:s0", "user_u:object_r:default_t:s0", "system_u:object_r:bin_t",
    NOT_A_CONTEXT,
  };

  /**
   * A random tree of about {@code size} entries under /tree (directories, files, symlinks, in every
   * part of the policy, some names with odd bytes), with random labels; the same for the same seed.
   */
  private static void randomTree(FileSystem fs, long seed, int size) throws IOException {
    Random random = new Random(seed);
    List<Path> dirs = new ArrayList<>();
    for (String dir : List.of("/tree", "/tree/etc", "/tree/bin", "/tree/var/log", "/tree/none/inner", "/tree/misc")) {
      dirs.add(Files.createDirectories(fs.getPath(dir)));
    }
    dirs.add(fs.getPath("/tree/var"));
    dirs.add(fs.getPath("/tree/none"));
    String[] odd = {"", " space", "\nnewline", "\u00ff\u00fe", "*", "[x]", "\\"};
    for (int i = 0; i < size; i++) {
      Path parent = dirs.get(random.nextInt(dirs.size()));
      Path p = parent.resolve("n" + i + odd[random.nextInt(odd.length)]);
      int kind = random.nextInt(20);
      if (kind < 5) {
        Files.createDirectory(p);
        dirs.add(p);
      } else if (kind < 17) {
        Files.createFile(p);
      } else {
        Files.createSymbolicLink(p, dirs.get(random.nextInt(dirs.size())));
      }
    }
    try (Stream<Path> paths = Files.walk(fs.getPath("/tree"))) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        String label = RANDOM_LABELS[random.nextInt(RANDOM_LABELS.length)];
        if (label != null) {
          JimfsFileTree.setLabelOf(p, label);
        }
      }
    }
  }

  private record Outcome(Map<String, String> labels, List<String> changes, List<String> failures, long visited,
      long relabeled, long unmatched) {}

  private Outcome randomRun(int threads, boolean reportTypes, boolean force) throws IOException {
    FileSystem randomFs = JimfsFileTree.newFileSystem();
    try {
      randomTree(randomFs, 42, 3_000);
      JimfsFileTree randomTree = new JimfsFileTree(randomFs, reportTypes);
      Map<String, AtomicInteger> labelled = new ConcurrentHashMap<>();
      HookedFileTree counting = new HookedFileTree(randomTree, (operation, name, path) -> {
        if (operation.equals("label")) {
          labelled.computeIfAbsent(PathBytes.latin1(path), k -> new AtomicInteger()).incrementAndGet();
        }
      });
      RecordingListener listener = new RecordingListener();
      RelabelReport report = run(counting, RelabelOptions.defaults().withThreads(threads).withForce(force), listener,
          "/tree");
      assertEquals(0, randomTree.openDirectories(), "directories left open");

      // Every entry is visited once; every entry with a context is read once, no other.
      Map<String, String> labels = new TreeMap<>();
      List<String> withContext = new ArrayList<>();
      try (Stream<Path> paths = Files.walk(randomFs.getPath("/tree"))) {
        for (Path p : (Iterable<Path>) paths::iterator) {
          String label = JimfsFileTree.labelOf(p);
          labels.put(p.toString(), label == null ? "-" : label);
          FileType type = JimfsFileTree.typeOf(Files.readAttributes(p, BasicFileAttributes.class,
              LinkOption.NOFOLLOW_LINKS));
          if (matcher.lookup(p.toString(), type).kind() == Label.Kind.CONTEXT) {
            withContext.add(p.toString());
          }
        }
      }
      assertEquals(labels.size(), report.visited(), "every entry visited once");
      assertEquals(new TreeMap<>(labelled.entrySet().stream()
          .filter(e -> e.getValue().get() != 1)
          .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()))), new TreeMap<>(),
          "entries whose label was read more than once");
      assertEquals(withContext.stream().sorted().toList(), labelled.keySet().stream().sorted().toList());

      List<String> failures = report.failures().stream()
          .map(f -> f.pathText() + " errno " + f.errno() + ": " + f.message()).toList();
      return new Outcome(labels, listener.changeLines(), failures, report.visited(), report.relabeled(),
          report.unmatched());
    } finally {
      randomFs.close();
    }
  }

  @ParameterizedTest(name = "force {0}")
  @ValueSource(booleans = {false, true})
  void everyEntryIsVisitedOnceWithTheSameResultsAtOneToFourWorkers(boolean force) throws IOException {
    Outcome one = randomRun(1, true, force);
    assertTrue(one.relabeled() > 1_000, "the random tree should need many changes: " + one.relabeled());
    assertTrue(one.unmatched() > 50, "the random tree should have <<none>> entries: " + one.unmatched());
    if (!force) {
      assertFalse(one.failures().isEmpty(), "labels that are not contexts should fail without -F");
      assertTrue(one.failures().stream().allMatch(f -> f.contains("'" + NOT_A_CONTEXT + "' is not a context")),
          one.failures().toString());
    } else {
      assertEquals(List.of(), one.failures());
    }
    for (int threads = 2; threads <= 4; threads++) {
      assertEquals(one, randomRun(threads, true, force), "-T " + threads + " differs from -T 1");
    }
    assertEquals(one, randomRun(3, false, force), "entries of unknown type (DT_UNKNOWN) must be statted alike");
  }

  // ---------------------------------------------------------------------------------------------
  // Options

  @Test
  void anExcludedDirectoryIsNeitherLabelledNorDescended() throws IOException {
    smallTree();
    RelabelReport report = run(RelabelOptions.defaults().withExcludes(List.of(Path.of("/tree/etc/"))),
        new RecordingListener(), "/tree");

    Map<String, String> expected = expectedAfterFullRun();
    for (String path : List.of("/tree/etc", "/tree/etc/passwd", "/tree/etc/sub", "/tree/etc/sub/conf",
        "/tree/etc/escape")) {
      expected.put(path, OLD);
    }
    expected.put("/tree/etc/unlabeled", "-");
    assertEquals(expected, labels("/tree", "/outside"));
    assertEquals(17 - 6, report.visited(), report.toString());
  }

  @Test
  void excludesApplyToDirectoriesOnlyAsInLibselinux() throws IOException {
    // selinux_restorecon checks its exclude list for directories (FTS_D) only: a file named by
    // -e is still labelled (setfiles -e FILE does label FILE).
    smallTree();
    run(RelabelOptions.defaults().withExcludes(List.of(Path.of("/tree/bin/tool"), Path.of("/tree/var/log"))),
        new RecordingListener(), "/tree");
    assertEquals(typed("bin_t"), label("/tree/bin/tool"));
    assertEquals(OLD, label("/tree/var/log"));
    assertEquals(OLD, label("/tree/var/log/syslog"));
  }

  @Test
  void aRootAtOrBeneathAnExcludedDirectoryIsSkipped() throws IOException {
    smallTree();
    RelabelOptions options = RelabelOptions.defaults().withExcludes(List.of(Path.of("/tree/etc")));
    RelabelReport report = run(options, new RecordingListener(), "/tree/etc", "/tree/etc/sub");
    assertEquals(0, report.visited(), report.toString());
    assertEquals(OLD, label("/tree/etc/sub"));
    assertEquals(OLD, label("/tree/etc/sub/conf"));
    assertTrue(report.succeeded());

    // Without -R (restorecon without -R), an excluded prefix covers any root, files too.
    report = run(options.withRecurse(false), new RecordingListener(), "/tree/etc/passwd", "/tree/etc");
    assertEquals(0, report.visited(), report.toString());
    assertEquals(OLD, label("/tree/etc/passwd"));

    // With -R a file root is not a directory, so not excluded (as fts reports it FTS_F).
    report = run(options, new RecordingListener(), "/tree/etc/passwd");
    assertEquals(1, report.visited(), report.toString());
    assertEquals(typed("etc_t"), label("/tree/etc/passwd"));

    // A sibling whose name merely starts with the excluded one's is not beneath it.
    JimfsFileTree.setLabelOf(mkdir("/tree/etcetera"), OLD);
    report = run(options, new RecordingListener(), "/tree/etcetera");
    assertEquals(1, report.visited(), report.toString());
    assertEquals(typed("default_t"), label("/tree/etcetera"));
  }

  @Test
  void withoutRecursionOnlyTheRootEntryIsLabelled() throws IOException {
    smallTree();
    RelabelReport report = run(RelabelOptions.defaults().withRecurse(false), new RecordingListener(),
        "/tree/etc");
    assertEquals(1, report.visited());
    assertEquals(1, report.relabeled());
    Map<String, String> labels = labels("/tree");
    labels.remove("/tree/etc");
    assertTrue(labels.entrySet().stream().allMatch(e -> e.getValue().equals(OLD) || e.getValue().equals("-")),
        labels.toString());
    assertEquals(typed("etc_t"), label("/tree/etc"));
  }

  /** Two names of one inode with the same spec, and two with different specs. */
  private void hardLinks() throws IOException {
    Path a = file("/tree/etc/a", OLD);
    Files.createLink(fs.getPath("/tree/etc/sub/b"), a);
    Path c = file("/tree/etc/c", OLD);
    Files.createLink(fs.getPath("/tree/var/log/d"), c);
  }

  @Test
  void aDryRunWritesNothingButReportsTheChangesARealRunMakes() throws IOException {
    smallTree();
    hardLinks();
    Map<String, String> before = labels("/tree", "/outside");

    RecordingListener dry = new RecordingListener();
    RelabelReport dryReport = run(RelabelOptions.defaults().withDryRun(true), dry, "/tree");
    assertEquals(before, labels("/tree", "/outside"), "a dry run must write nothing");
    assertTrue(dry.changes.stream().noneMatch(RelabelReport.Change::applied));

    RecordingListener real = new RecordingListener();
    RelabelReport realReport = run(RelabelOptions.defaults(), real, "/tree");
    assertEquals(real.changeLines(), dry.changeLines());
    assertEquals(realReport.relabeled(), dryReport.relabeled());
    assertEquals(realReport.visited(), dryReport.visited());
    assertEquals(List.copyOf(real.warnings), List.copyOf(dry.warnings));
    // One change per inode: the second name of a hard-linked file is not relabelled again.
    assertEquals(1, real.changeLines().stream().filter(l -> l.startsWith("/tree/etc/a:")
        || l.startsWith("/tree/etc/sub/b:")).count(), real.changeLines().toString());
  }

  @Test
  void aHardLinkWhoseNamesGetDifferentLabelsKeepsTheFirstAndWarnsOnce() throws IOException {
    smallTree();
    hardLinks();
    RecordingListener listener = new RecordingListener();
    run(RelabelOptions.defaults(), listener, "/tree");
    assertEquals(1, listener.warnings.size(), listener.warnings.toString());
    String warning = listener.warnings.peek();
    // One of the names came first; its label is the inode's, and the message names both.
    String label = label("/tree/etc/c");
    assertEquals(label, label("/tree/var/log/d"));
    assertTrue(label.equals(typed("etc_t")) || label.equals(typed("var_log_t")), label);
    String first = label.equals(typed("etc_t")) ? "/tree/etc/c" : "/tree/var/log/d";
    String second = first.equals("/tree/etc/c") ? "/tree/var/log/d" : "/tree/etc/c";
    assertEquals("conflicting specifications for " + second + " and " + first + ", using "
        + matcher.lookup(first, FileType.REGULAR_FILE).context().orElseThrow() + ".", warning);
  }

  @Test
  void hardLinkAssociationsLastOneRoot() throws IOException {
    // setfiles calls selinux_restorecon once per root, and each call forgets its inodes at its end.
    smallTree();
    hardLinks();
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(RelabelOptions.defaults(), listener, "/tree/etc", "/tree/var/log");
    assertEquals(List.of(), List.copyOf(listener.warnings));
    assertEquals(typed("var_log_t"), label("/tree/etc/c"), "the later root's name relabels the inode again");
    assertTrue(listener.changeLines().stream().anyMatch(l -> l.startsWith("/tree/etc/c:")));
    assertTrue(listener.changeLines().stream().anyMatch(l -> l.startsWith("/tree/var/log/d:")));
    assertEquals(List.of(), report.failures());
  }

  @Test
  void aRootThatIsAFileIsLabelledAlone() throws IOException {
    smallTree();
    RelabelReport report = run(RelabelOptions.defaults(), new RecordingListener(), "/tree/bin/tool");
    assertEquals(1, report.visited());
    assertEquals(typed("bin_t"), label("/tree/bin/tool"));
    assertEquals(OLD, label("/tree/bin"));

    // A symlink root is labelled itself, not followed.
    report = run(RelabelOptions.defaults(), new RecordingListener(), "/tree/etc/escape");
    assertEquals(1, report.visited());
    assertEquals(typed("etc_t"), label("/tree/etc/escape"));
    assertEquals(OLD, label("/outside/secret"));
  }

  @Test
  void aMissingRootFailsUnlessMissingRootsAreIgnored() throws IOException {
    smallTree();
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(RelabelOptions.defaults(), listener, "/tree/gone", "/gone/too", "/tree/bin");
    assertEquals(List.of("/gone/too", "/tree/gone"), report.failures().stream().map(RelabelReport.Failure::pathText)
        .toList());
    assertTrue(report.failures().stream().allMatch(f -> f.errno() == Errno.ENOENT), report.failures().toString());
    assertEquals(2, listener.failures.size());
    assertEquals(3, report.visited(), "the roots after a missing one are still walked");
    assertFalse(report.succeeded());

    report = run(RelabelOptions.defaults().withIgnoreMissing(true), new RecordingListener(), "/tree/gone",
        "/gone/too", "/tree/bin");
    assertEquals(List.of(), report.failures());
    assertTrue(report.succeeded());
  }

  @Test
  void anAlternateRootIsMatchedAsSlash() throws IOException {
    Path chroot = mkdir("/chroot");
    JimfsFileTree.setLabelOf(chroot, OLD);
    for (String dir : List.of("/chroot/tree", "/chroot/tree/etc", "/chroot/tree/none")) {
      JimfsFileTree.setLabelOf(mkdir(dir), OLD);
    }
    file("/chroot/tree/etc/passwd", OLD);
    file("/chroot/tree/none/file", OLD);

    RelabelReport report = run(RelabelOptions.defaults().withAlternateRoot(Path.of("/chroot/")),
        new RecordingListener(), "/chroot");
    assertEquals(List.of(), report.failures());
    assertEquals(typed("root_t"), label("/chroot"), "the alternate root itself is matched as /");
    assertEquals(typed("default_t"), label("/chroot/tree"));
    assertEquals(typed("etc_t"), label("/chroot/tree/etc"));
    assertEquals(typed("etc_t"), label("/chroot/tree/etc/passwd"));
    assertEquals(OLD, label("/chroot/tree/none/file"));

    // A root outside the alternate root is an error; so is one that only shares its prefix.
    file("/chrootx/file", OLD);
    report = run(RelabelOptions.defaults().withAlternateRoot(Path.of("/chroot")), new RecordingListener(),
        "/tree", "/chrootx/file");
    assertEquals(List.of("/chrootx/file", "/tree"), report.failures().stream().map(RelabelReport.Failure::pathText)
        .toList());
    assertEquals(OLD, label("/chrootx/file"));

    // -r / changes nothing: every path is matched as itself.
    file("/tree/etc/passwd", OLD);
    file("/chroot/tree/etc/group", OLD);
    report = run(RelabelOptions.defaults().withAlternateRoot(Path.of("/")), new RecordingListener(),
        "/tree/etc/passwd", "/chroot/tree/etc/group");
    assertEquals(List.of(), report.failures());
    assertEquals(1, report.unmatched(), "/chroot/tree/etc/group is matched as itself: " + report);
    assertEquals(typed("etc_t"), label("/tree/etc/passwd"));
    assertEquals(OLD, label("/chroot/tree/etc/group"));
  }

  @Test
  void noneAndNoMatchEntriesAreLeftAloneAndCountedUnmatched() throws IOException {
    smallTree();
    file("/other/x", OLD);
    JimfsFileTree.setLabelOf(fs.getPath("/other"), NOT_A_CONTEXT);
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(RelabelOptions.defaults().withForce(true), listener, "/tree/none", "/other");
    // /tree/none and /tree/none/file say <<none>>; /other and /other/x match nothing. Beneath a
    // <<none>> directory the walk goes on: /tree/none/inner has a spec of its own.
    assertEquals(6, report.visited());
    assertEquals(4, report.unmatched());
    assertEquals(OLD, label("/tree/none"));
    assertEquals(OLD, label("/tree/none/file"));
    assertEquals("system_u:object_r:inner_t:s0", label("/tree/none/inner/deep"));
    assertEquals(NOT_A_CONTEXT, label("/other"));
    assertEquals(OLD, label("/other/x"));
    assertEquals(List.of(), report.failures());
    assertTrue(listener.changeLines().stream().noneMatch(l -> l.startsWith("/other") || l.startsWith("/tree/none:")
        || l.startsWith("/tree/none/file")), listener.changeLines().toString());
  }

  @ParameterizedTest(name = "-T {0}")
  @ValueSource(ints = {1, 3})
  void unusedSpecsAreReportedInLibselinuxOrderOnlyWhenAsked(int threads) throws IOException {
    smallTree();
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads);
    RelabelReport quiet = run(options, new RecordingListener(), "/tree/etc");
    assertEquals(List.of(), quiet.unusedSpecs(), "only reported when asked");
    RelabelReport report = run(options.withReportUnusedSpecs(true), new RecordingListener(), "/tree/etc");
    // Only /tree/etc(/.*)? decided anything; libselinux lists expressions, then exact specs ("/").
    assertEquals(List.of("/tree(/.*)?", "/tree/bin(/.*)?", "/tree/var/log(/.*)?", "/tree/none(/.*)?",
        "/tree/none/inner(/.*)?", "/"), report.unusedSpecs().stream().map(Spec::regex).toList());
  }

  /**
   * A filesystem that shows a directory inside itself (a corrupt one; a FUSE or network one may),
   * which no mount table tells of: the walk meets the directory's device and inode again beneath it,
   * reports a directory cycle there without labelling or entering it, and goes on; chcon -R too.
   */
  @ParameterizedTest(name = "-T {0}")
  @ValueSource(ints = {1, 3})
  void aDirectoryShownInsideItselfIsACycleNeitherLabelledNorEntered(int threads) throws IOException {
    smallTree();
    mkdir("/tree/etc/sub/loop");
    JimfsFileTree looping = JimfsFileTree.showingItselfAs(fs, "loop");
    RelabelReport report = run(looping, RelabelOptions.defaults().withThreads(threads), new RecordingListener(),
        "/tree");
    assertEquals(List.of("/tree/etc/sub/loop: directory cycle"),
        report.failures().stream().map(f -> f.pathText() + ": " + f.message()).toList());
    Map<String, String> expected = expectedAfterFullRun();
    expected.put("/tree/etc/sub/loop", "-");
    assertEquals(expected, labels("/tree", "/outside"));

    List<ChconProblem> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    ChconOptions chcon = ChconOptions.builder(dev.relabel.context.ContextEdit.whole(ROOT)).recurse(true)
        .threads(threads).build();
    try (ContextChanger changer = new ContextChanger(chcon, looping, new ChconListener() {
      @Override
      public void failed(ChconProblem problem) {
        problems.add(problem);
      }
    })) {
      changer.run(List.of(Path.of("/tree/etc")));
    }
    assertEquals(List.of(ChconProblem.Kind.DIRECTORY_CYCLE + " /tree/etc/sub/loop"),
        problems.stream().map(p -> p.kind() + " " + PathBytes.latin1(p.path())).toList());
    assertEquals(ROOT, label("/tree/etc/sub/conf"));
    assertEquals("-", labels("/tree/etc/sub/loop").get("/tree/etc/sub/loop"));
    assertEquals(0, looping.selfOpens(), "no walk entered the cycle");
    assertEquals(0, looping.openDirectories(), "directories left open after the walks");
  }

  // ---------------------------------------------------------------------------------------------
  // Failures

  @Test
  void anEntryThatFailsIsReportedWithItsPathAndTheWalkGoesOn() throws IOException {
    smallTree();
    file("/tree/etc/bad", OLD);
    file("/tree/etc/zzz", OLD);
    JimfsFileTree.setLabelOf(mkdir("/tree/etc/baddir"), OLD);
    file("/tree/etc/baddir/inside", OLD);
    FileTree faulty = new HookedFileTree(tree, (operation, name, path) -> {
      String n = PathBytes.latin1(name);
      if ((operation.equals("label") && n.equals("bad")) || (operation.equals("openChild") && n.equals("baddir"))) {
        throw TestErrno.exception(operation, path, Errno.EIO);
      }
    });
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(faulty, RelabelOptions.defaults().withThreads(2), listener, "/tree");

    assertEquals(List.of("/tree/etc/bad", "/tree/etc/baddir"),
        report.failures().stream().map(RelabelReport.Failure::pathText).toList());
    assertTrue(report.failures().stream().allMatch(f -> f.errno() == Errno.EIO && f.message().contains("EIO")),
        report.failures().toString());
    assertEquals(2, listener.failures.size());
    assertFalse(report.succeeded());

    Map<String, String> expected = expectedAfterFullRun();
    expected.put("/tree/etc/bad", OLD);
    expected.put("/tree/etc/zzz", typed("etc_t"));
    expected.put("/tree/etc/baddir", typed("etc_t")); // labelled from its parent before it failed to open
    expected.put("/tree/etc/baddir/inside", OLD);
    assertEquals(expected, labels("/tree", "/outside"));
  }

  @Test
  void anEntryWhoseTreeThrowsAnUncheckedExceptionIsReportedWithItsPath() throws IOException {
    smallTree();
    file("/tree/etc/boom", OLD);
    file("/tree/etc/zzz", OLD);
    FileTree faulty = new HookedFileTree(tree, (operation, name, path) -> {
      if (operation.equals("label") && PathBytes.latin1(name).equals("boom")) {
        throw new IllegalStateException("boom");
      }
    });
    RelabelReport report = run(faulty, RelabelOptions.defaults(), new RecordingListener(), "/tree");
    assertEquals(List.of("/tree/etc/boom"), report.failures().stream().map(RelabelReport.Failure::pathText).toList());
    Map<String, String> expected = expectedAfterFullRun();
    expected.put("/tree/etc/boom", OLD);
    expected.put("/tree/etc/zzz", typed("etc_t"));
    assertEquals(expected, labels("/tree", "/outside"));
  }

  // ---------------------------------------------------------------------------------------------
  // Shapes

  @ParameterizedTest(name = "-T {0}")
  @ValueSource(ints = {1, 4})
  void aTreeThreeThousandDeepCompletes(int threads) throws IOException {
    StringBuilder path = new StringBuilder("/tree");
    for (int i = 0; i < 3_000; i++) {
      path.append("/d");
    }
    Path bottom = Files.createDirectories(fs.getPath(path.toString()));
    file(bottom.resolve("leaf").toString(), OLD);

    RelabelReport report = run(RelabelOptions.defaults().withThreads(threads), new RecordingListener(), "/tree");
    assertEquals(List.of(), report.failures());
    assertEquals(3_002, report.visited());
    assertEquals(3_002, report.relabeled());
    assertEquals(typed("default_t"), label(bottom.resolve("leaf").toString()));
    assertEquals("system_u:object_r:default_t:s0", label(bottom.toString()));
  }

  /**
   * A directory larger than one task's share ({@link TreeTask#ENTRIES_PER_TASK}) is visited in
   * ranges on several workers: still every entry once, its subdirectories descended once, with the
   * same results at one to four workers.
   */
  @Test
  void aLargeDirectoryIsVisitedInRangesEachEntryOnce() throws IOException {
    int size = 5 * TreeTask.ENTRIES_PER_TASK + 17;
    Map<Integer, Map<String, String>> results = new TreeMap<>();
    for (int threads = 1; threads <= 4; threads++) {
      FileSystem bigFs = JimfsFileTree.newFileSystem();
      try {
        Path etc = Files.createDirectories(bigFs.getPath("/tree/etc"));
        for (int i = 0; i < size; i++) {
          Path p = etc.resolve("e" + i);
          if (i % 10 == 0) {
            Files.createDirectory(p);
            Files.createFile(p.resolve("inner"));
            JimfsFileTree.setLabelOf(p.resolve("inner"), OLD);
          } else if (i % 10 == 1) {
            Files.createSymbolicLink(p, bigFs.getPath("/tree"));
          } else {
            Files.createFile(p);
          }
          JimfsFileTree.setLabelOf(p, OLD);
        }
        JimfsFileTree bigTree = new JimfsFileTree(bigFs);
        Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
        HookedFileTree counting = new HookedFileTree(bigTree, (operation, name, path) -> {
          if (operation.equals("label")) {
            reads.computeIfAbsent(PathBytes.latin1(path), k -> new AtomicInteger()).incrementAndGet();
          }
        });
        RelabelReport report = run(counting, RelabelOptions.defaults().withThreads(threads), new RecordingListener(),
            "/tree");
        assertEquals(0, bigTree.openDirectories(), "directories left open");
        assertEquals(List.of(), report.failures());
        long entries = 2 + size + (size + 9) / 10;
        assertEquals(entries, report.visited(), "-T " + threads);
        assertEquals(entries, reads.size(), "-T " + threads + ": entries whose label was read");
        assertTrue(reads.values().stream().allMatch(n -> n.get() == 1), "-T " + threads + ": a label read twice");
        Map<String, String> labels = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(bigFs.getPath("/tree"))) {
          for (Path p : (Iterable<Path>) paths::iterator) {
            labels.put(p.toString(), JimfsFileTree.labelOf(p));
          }
        }
        results.put(threads, labels);
      } finally {
        bigFs.close();
      }
    }
    assertEquals(typed("etc_t"), results.get(1).get("/tree/etc/e10/inner"));
    for (int threads = 2; threads <= 4; threads++) {
      assertEquals(results.get(1), results.get(threads), "-T " + threads + " differs from -T 1");
    }
  }

  @Test
  void aDirectoryOfTwentyThousandEntries() throws IOException {
    Path etc = mkdir("/tree/etc");
    for (int i = 0; i < 20_000; i++) {
      Files.createFile(etc.resolve("f" + i));
    }
    RelabelReport report = run(RelabelOptions.defaults().withThreads(4), new RecordingListener(), "/tree");
    assertEquals(List.of(), report.failures());
    assertEquals(20_002, report.visited());
    assertEquals(20_002, report.relabeled());
    try (Stream<Path> files = Files.list(etc)) {
      assertTrue(files.allMatch(f -> {
        try {
          return "system_u:object_r:etc_t:s0".equals(JimfsFileTree.labelOf(f));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }));
    }
    assertNull(label("/"), "nothing above the root is touched");
  }
}
