package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.SmallStack;
import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.DirEntry;
import dev.relabel.nativeio.Kernel;
import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The walker on real files ({@link NativeFileTree}) in a temp directory: each of
 * {@code selinux_restorecon}'s label rules end to end, and what only a real filesystem has —
 * symlinks, FIFOs, mount points, hard links, paths longer than PATH_MAX, names that are not text.
 * Needs root (security.* attributes; mount for -x); ext4 and tmpfs store them with SELinux off.
 */
class NativeWalkTest {
  private static final Kernel KERNEL = Kernel.linux();

  private static final String OLD = "staff_u:staff_r:tmp_t:s0-s0:c1";
  private static final String SENTINEL = "sentinel_u:sentinel_r:sentinel_t:s0";

  @TempDir Path dir;
  private Path policy;
  private Path tree;
  private Path outside;
  private final List<Path> mounts = new ArrayList<>();

  @BeforeEach
  void layout() throws IOException {
    policy = dir.resolve("policy");
    tree = Files.createDirectory(dir.resolve("tree"));
    outside = Files.createDirectory(dir.resolve("outside"));
    assertTrue(tree.toString().matches("[A-Za-z0-9/_-]+"), "the temp path must be usable in a regex: " + tree);
  }

  @AfterEach
  void unmount() throws Exception {
    // The last made first: a mount made inside another goes before it.
    for (int i = mounts.size() - 1; i >= 0; i--) {
      DiskLabels.bash(dir, "umount " + mounts.get(i));
    }
  }

  /** A policy whose lines may say TREE for the tree's path. */
  private LabelMatcher policy(String... lines) throws IOException {
    String[] resolved = Stream.of(lines).map(l -> l.replace("TREE", tree.toString())).toArray(String[]::new);
    return TestPolicy.matcher(policy, resolved);
  }

  private static RelabelReport run(LabelMatcher matcher, RelabelOptions options, RelabelListener listener, Path... roots)
      throws IOException {
    return Relabeler.onDisk(matcher, options, listener).run(List.of(roots));
  }

  private Path file(String relative, String label) throws IOException {
    Path p = tree.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.createFile(p);
    if (label != null) {
      DiskLabels.set(p, label);
    }
    return p;
  }

  /** Labels the tree's directories with the policy's answer, so a test sees only its files change. */
  private static void labelDirectories(String context, Path... dirs) throws IOException {
    for (Path d : dirs) {
      DiskLabels.set(d, context);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // selinux_restorecon's rules

  @Test
  void aTypeOnlyChangeKeepsUserRoleAndRange() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path f = file("f", OLD);
    Path noRange = file("no-range", "staff_u:staff_r:tmp_t");
    Path sameType = file("same-type", "user_u:user_r:etc_t:s0:c5");
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, RelabelOptions.defaults(), listener, tree);
    assertEquals(List.of(), report.failures());
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(f));
    assertEquals("staff_u:staff_r:etc_t", DiskLabels.get(noRange));
    assertEquals("user_u:user_r:etc_t:s0:c5", DiskLabels.get(sameType), "same type: nothing to change");
    assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(tree), "an unlabeled entry gets the whole context");
    assertEquals(3, report.relabeled());
  }

  /**
   * The pool's workers keep their counters for the run they last served: a second run on the same
   * relabeler must count only its own entries, a third (nothing left to change) none changed.
   */
  @Test
  void eachRunOnOneRelabelerCountsOnlyItsOwnEntries() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    for (int d = 0; d < 6; d++) {
      for (int f = 0; f < 40; f++) {
        file("a/" + d + "/f" + f, OLD);
        file("b/" + d + "/f" + f, OLD);
      }
      file("b/" + d + "/extra", OLD);
    }
    try (Relabeler relabeler = Relabeler.onDisk(matcher, RelabelOptions.defaults().withThreads(2), RelabelListener.NONE)) {
      RelabelReport first = relabeler.run(List.of(tree.resolve("a")));
      RelabelReport second = relabeler.run(List.of(tree.resolve("b")));
      RelabelReport third = relabeler.run(List.of(tree.resolve("b")));
      assertEquals(List.of(1L + 6 + 240, 1L + 6 + 240), List.of(first.visited(), first.relabeled()));
      assertEquals(List.of(1L + 6 + 246, 1L + 6 + 246), List.of(second.visited(), second.relabeled()));
      assertEquals(List.of(1L + 6 + 246, 0L), List.of(third.visited(), third.relabeled()));
    }
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(tree.resolve("b/5/extra")));
  }

  @Test
  void changedAfterLabelsOnlyEntriesModifiedStrictlyLaterButWalksThroughOlderDirectories() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    java.nio.file.attribute.FileTime cut = java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L);
    java.nio.file.attribute.FileTime before = java.nio.file.attribute.FileTime.fromMillis(1_500_000_000_000L);
    java.nio.file.attribute.FileTime after = java.nio.file.attribute.FileTime.fromMillis(1_700_000_000_000L);
    Path oldFile = file("old-dir/old", OLD);
    Path newFile = file("old-dir/new", OLD);
    Path exact = file("old-dir/exact", OLD);
    Files.setLastModifiedTime(oldFile, before);
    Files.setLastModifiedTime(newFile, after);
    Files.setLastModifiedTime(exact, cut);
    Files.setLastModifiedTime(oldFile.getParent(), before);
    Files.setLastModifiedTime(tree, before);
    RelabelReport report = run(matcher, RelabelOptions.defaults().withChangedAfter(cut.toInstant()),
        RelabelListener.NONE, tree);
    assertEquals(List.of(), report.failures());
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(newFile), "modified after: relabelled");
    assertEquals(OLD, DiskLabels.get(oldFile), "modified before: left alone");
    assertEquals(OLD, DiskLabels.get(exact), "modified at the instant itself is not newer (find -newermt)");
    assertEquals(null, DiskLabels.get(oldFile.getParent()), "an older directory is walked through, not labelled");
    assertEquals(null, DiskLabels.get(tree));
    assertEquals(1, report.relabeled());
  }

  @Test
  void forceSetsTheWholeContext() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path f = file("f", OLD);
    Path sameType = file("same-type", "user_u:user_r:etc_t:s0:c5");
    Path notAContext = file("garbage", "garbage");
    RelabelReport report = run(matcher, RelabelOptions.defaults().withForce(true), RelabelListener.NONE, tree);
    assertEquals(List.of(), report.failures());
    for (Path p : List.of(tree, f, sameType, notAContext)) {
      assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(p), p.toString());
    }
  }

  @Test
  void userRoleTypeTakesUserAndRoleFromTheSpecAndKeepsTheRange() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    labelDirectories("system_u:object_r:etc_t:s0", tree);
    Path f = file("f", OLD);
    Path userOnly = file("user-only", "user_u:object_r:etc_t:s0-s0:c2");
    run(matcher, RelabelOptions.defaults().withUserRoleType(true), RelabelListener.NONE, tree);
    assertEquals("system_u:object_r:etc_t:s0-s0:c1", DiskLabels.get(f));
    assertEquals("system_u:object_r:etc_t:s0-s0:c2", DiskLabels.get(userOnly), "-U changes user and role alone too");

    DiskLabels.set(userOnly, "user_u:object_r:etc_t:s0-s0:c2");
    run(matcher, RelabelOptions.defaults(), RelabelListener.NONE, tree);
    assertEquals("user_u:object_r:etc_t:s0-s0:c2", DiskLabels.get(userOnly), "without -U only the type counts");
  }

  @Test
  void aCustomizableTypeIsKeptUnlessForced() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    TestPolicy.customizableTypes(policy, "# a comment", "httpd_user_content_t", "public_content_t");
    labelDirectories("system_u:object_r:etc_t:s0", tree);
    Path custom = file("custom", "staff_u:object_r:httpd_user_content_t:s0");
    Path plain = file("plain", OLD);
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, RelabelOptions.defaults(), listener, tree);
    assertEquals("staff_u:object_r:httpd_user_content_t:s0", DiskLabels.get(custom));
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(plain));
    assertEquals(List.of(custom + " not reset as customized by admin to staff_u:object_r:httpd_user_content_t:s0"),
        List.copyOf(listener.warnings));
    assertEquals(1, report.relabeled());

    run(matcher, RelabelOptions.defaults().withForce(true), RelabelListener.NONE, tree);
    assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(custom));
  }

  @Test
  void anUnlabeledEntryGetsTheFullContextAndAMalformedLabelFailsWithoutForce() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path unlabeled = file("unlabeled", null);
    Path garbage = file("garbage", "garbage");
    RelabelReport report = run(matcher, RelabelOptions.defaults(), RelabelListener.NONE, tree);
    assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(unlabeled));
    assertEquals("garbage", DiskLabels.get(garbage));
    assertEquals(List.of(garbage.toString()), report.failures().stream().map(RelabelReport.Failure::pathText).toList());
  }

  // ---------------------------------------------------------------------------------------------
  // Special files

  @ParameterizedTest(name = "getxattrat/setxattrat {0}")
  @ValueSource(booleans = {true, false})
  void symlinksAreLabelledThemselvesAndNeverFollowed(boolean xattrAt) throws IOException {
    boolean was = XattrFallback.usesXattrAt();
    if (xattrAt && !was) {
      // getxattrat/setxattrat came with Linux 6.13; CI's kernel has them, so there the path must be tested
      AttrTrees.unavailable("this kernel has no getxattrat/setxattrat (Linux 6.13 or later)");
    }
    XattrFallback.useXattrAt(xattrAt);
    try {
      symlinksAreLabelledThemselvesAndNeverFollowed();
    } finally {
      XattrFallback.useXattrAt(was);
    }
  }

  private void symlinksAreLabelledThemselvesAndNeverFollowed() throws IOException {
    LabelMatcher matcher = policy(
        "TREE(/.*)?  system_u:object_r:etc_t:s0",
        "TREE/.*link  -l  system_u:object_r:link_t:s0");
    Path target = Files.createFile(outside.resolve("target"));
    Path inner = Files.createFile(Files.createDirectory(outside.resolve("dir")).resolve("inner"));
    for (Path p : List.of(outside, target, outside.resolve("dir"), inner)) {
      DiskLabels.set(p, SENTINEL);
    }
    Path fileLink = Files.createSymbolicLink(tree.resolve("filelink"), target);
    Path dirLink = Files.createSymbolicLink(tree.resolve("dirlink"), outside.resolve("dir"));
    Path dangling = Files.createSymbolicLink(tree.resolve("danglinglink"), outside.resolve("nothing"));

    RelabelReport report = run(matcher, RelabelOptions.defaults().withForce(true), RelabelListener.NONE, tree,
        fileLink);
    assertEquals(List.of(), report.failures());
    for (Path link : List.of(fileLink, dirLink, dangling)) {
      assertEquals("system_u:object_r:link_t:s0", DiskLabels.get(link), link.toString());
    }
    for (Path p : List.of(outside, target, outside.resolve("dir"), inner)) {
      assertEquals(SENTINEL, DiskLabels.get(p), "outside the tree: " + p);
    }
    assertEquals(5, report.visited(), "tree, three links, and the link given as a root");
  }

  @Test
  void aFifoIsLabelledAndNeverOpened() throws Exception {
    LabelMatcher matcher = policy(
        "TREE(/.*)?  system_u:object_r:etc_t:s0",
        "TREE/fifo  -p  system_u:object_r:fifo_t:s0");
    DiskLabels.bash(dir, "mkfifo " + tree.resolve("fifo"));
    // Opening a FIFO without a writer blocks: were the walker to open it, this would time out.
    RelabelReport report = assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> run(matcher, RelabelOptions.defaults().withThreads(2), RelabelListener.NONE, tree));
    assertEquals(List.of(), report.failures());
    assertEquals("system_u:object_r:fifo_t:s0", DiskLabels.get(tree.resolve("fifo")));
  }

  // ---------------------------------------------------------------------------------------------
  // -x

  private Path mountTmpfs(Path at) throws Exception {
    Files.createDirectories(at);
    return mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-test", at.toString()), at);
  }

  /** Runs {@code command}, which mounts a filesystem at {@code at}, unmounted after the test. */
  private Path mount(List<String> command, Path at) throws Exception {
    AttrTrees.mount(command, dir);
    mounts.add(at);
    return at;
  }

  @Test
  void oneFilesystemNeitherLabelsNorEntersAMountPoint() throws Exception {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path mnt = mountTmpfs(tree.resolve("mnt"));
    Path inner = Files.createFile(mnt.resolve("inner"));
    Path sub = Files.createDirectory(mnt.resolve("sub"));
    for (Path p : List.of(mnt, inner, sub)) {
      DiskLabels.set(p, OLD);
    }
    Path local = file("local", OLD);

    RelabelReport report = run(matcher, RelabelOptions.defaults().withOneFilesystem(true), RelabelListener.NONE, tree);
    assertEquals(List.of(), report.failures());
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(local));
    // selinux_restorecon with SELINUX_RESTORECON_XDEV skips every entry whose st_dev is not the
    // root's, the mount point's root included (restorecon -x -R TREE leaves TREE/mnt alone).
    for (Path p : List.of(mnt, inner, sub)) {
      assertEquals(OLD, DiskLabels.get(p), p.toString());
    }
    assertEquals(2, report.visited(), "the tree and its local file");

    // A root that is itself the mount point is walked: its filesystem is the one not to leave.
    report = run(matcher, RelabelOptions.defaults().withOneFilesystem(true), RelabelListener.NONE, mnt);
    for (Path p : List.of(mnt, inner, sub)) {
      assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(p), p.toString());
    }

    // Without -x the walk crosses into it.
    for (Path p : List.of(mnt, inner, sub)) {
      DiskLabels.set(p, OLD);
    }
    run(matcher, RelabelOptions.defaults(), RelabelListener.NONE, tree);
    for (Path p : List.of(mnt, inner, sub)) {
      assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(p), p.toString());
    }
  }

  /**
   * A filesystem whose listings give no entry type (DT_UNKNOWN: ext4 made without its filetype
   * feature, as XFS without ftype and some network filesystems list): each entry's status says
   * what it is, so per-type specs apply as elsewhere; a mount inside is labelled at its visit, or
   * with -x left alone.
   */
  @ParameterizedTest(name = "-x {0}")
  @ValueSource(booleans = {false, true})
  void aFilesystemWhoseListingsGiveNoTypeIsLabelledByEachEntrysStatus(boolean oneFilesystem) throws Exception {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0", "TREE/.*  -d  system_u:object_r:bin_t:s0",
        "TREE/.*  -l  system_u:object_r:lib_t:s0");
    Path image = dir.resolve("untyped.img");
    DiskLabels.bash(dir, "truncate -s 32M " + image + " && mkfs.ext4 -q -O ^filetype " + image);
    Path untyped = mount(List.of("mount", "-o", "loop", image.toString(), tree.toString()), tree);
    Path sub = Files.createDirectories(untyped.resolve("sub/inner")).getParent();
    Path f = file("sub/f", OLD);
    Path link = Files.createSymbolicLink(untyped.resolve("link"), Path.of("sub"));
    Path mnt = mountTmpfs(untyped.resolve("mnt"));
    Path inMount = Files.createFile(mnt.resolve("g"));
    for (Path p : List.of(untyped, sub, sub.resolve("inner"), link, mnt, inMount)) {
      DiskLabels.set(p, OLD);
    }
    RelabelReport report = run(matcher, RelabelOptions.defaults().withOneFilesystem(oneFilesystem), RelabelListener.NONE,
        tree);
    assertEquals(List.of(), report.failures());
    String dirLabel = "staff_u:staff_r:bin_t:s0-s0:c1";
    assertEquals(Map.of("sub", dirLabel, "sub/inner", dirLabel, "sub/f", "staff_u:staff_r:etc_t:s0-s0:c1", "link",
        "staff_u:staff_r:lib_t:s0-s0:c1", "lost+found", "system_u:object_r:bin_t:s0"),
        Map.of("sub", DiskLabels.get(sub), "sub/inner", DiskLabels.get(sub.resolve("inner")), "sub/f", DiskLabels.get(f),
            "link", DiskLabels.get(link), "lost+found", DiskLabels.get(untyped.resolve("lost+found"))));
    assertEquals(oneFilesystem ? OLD : dirLabel, DiskLabels.get(mnt), "the mount's root");
    assertEquals(oneFilesystem ? OLD : "staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(inMount));
  }

  @Test
  void oneFilesystemEntersADirectoryBindMountedFromTheSameFilesystem() throws Exception {
    // fts's FTS_XDEV, which selinux_restorecon walks with, compares devices, not mounts: a bind
    // mount of the walk's own filesystem is walked (openat2 refuses it; the device check takes it).
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path inner = file("source/inner", OLD);
    Path bind = Files.createDirectory(tree.resolve("bind"));
    DiskLabels.set(bind, OLD);
    mount(List.of("mount", "--bind", tree.resolve("source").toString(), bind.toString()), bind);
    RelabelReport report = run(matcher, RelabelOptions.defaults().withOneFilesystem(true), RelabelListener.NONE, tree);
    assertEquals(List.of(), report.failures());
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(inner));
    assertEquals(5, report.visited(), "the tree, source, bind and inner through both");
  }

  @Test
  void oneFilesystemEntersNoMountMadeAfterTheEntryWasLookedAt() throws Exception {
    // The race -x guards against: a filesystem mounted on a subdirectory between the walk's look
    // at the entry (its device, the walk's) and its open.
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path sub = Files.createDirectory(tree.resolve("sub"));
    DiskLabels.set(sub, OLD);
    List<String> opens = new java.util.concurrent.CopyOnWriteArrayList<>();
    FileTree racing = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      String entry = new String(name, StandardCharsets.ISO_8859_1);
      // Once the walk has the entry's status (the hook runs before each call), as it reads its label.
      if (operation.equals("label") && entry.equals("sub") && opens.isEmpty()) {
        opens.add("mounted");
        try {
          mountTmpfs(sub);
          Files.createFile(sub.resolve("inner"));
        } catch (Exception e) {
          throw new IOException(e);
        }
      } else if (operation.startsWith("openChild") && entry.equals("sub")) {
        opens.add(operation);
      }
    });
    RelabelReport report;
    try (Relabeler relabeler = new Relabeler(matcher, Set.of(), RelabelOptions.defaults().withOneFilesystem(true),
        racing, RelabelListener.NONE)) {
      report = relabeler.run(List.of(tree));
    }
    assertEquals(List.of("mounted", "openChildOnMount", "openChild"), opens,
        "openat2 refuses the mount point; the open that follows is checked by its device");
    assertEquals(List.of(), report.failures());
    assertEquals(null, DiskLabels.get(sub.resolve("inner")), "the mounted filesystem was not walked");
  }

  /**
   * A directory cycle made while the walk runs: the tree bound onto its subdirectory {@code a}
   * after the walk read a's status, before it opened a. The walk finds a's own inode again beneath
   * it, at {@code a/a}, and reports it as setfiles' fts does ("Directory cycle on"), without
   * entering it: {@code a/f} is reached by no name.
   */
  @Test
  void aDirectoryCycleMadeDuringTheWalkIsReportedAndNotEntered() throws Exception {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path a = file("a/f", OLD).getParent();
    List<String> binds = new java.util.concurrent.CopyOnWriteArrayList<>();
    FileTree binding = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.startsWith("openChild") && new String(name, StandardCharsets.ISO_8859_1).equals("a")
          && binds.isEmpty()) {
        binds.add(new String(path, StandardCharsets.ISO_8859_1));
        try {
          mount(List.of("mount", "--bind", tree.toString(), a.toString()), a);
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
    });
    RelabelReport report;
    try (Relabeler relabeler = new Relabeler(matcher, Set.of(), RelabelOptions.defaults(), binding,
        RelabelListener.NONE)) {
      report = relabeler.run(List.of(tree));
    }
    assertEquals(List.of(a.toString()), binds);
    assertEquals(List.of(a.resolve("a") + ": directory cycle"),
        report.failures().stream().map(f -> f.pathText() + ": " + f.message()).toList());
    assertEquals(OLD, DiskLabels.get(a.resolve("a/f")), "beneath the cycle: not entered");
    assertEquals(List.of("system_u:object_r:etc_t:s0", "system_u:object_r:etc_t:s0"),
        List.of(DiskLabels.get(tree), DiskLabels.get(a.resolve("a"))), "the tree, and a before the bind");
  }

  /**
   * A tree thousands of levels deep in a part that a bind mount shows twice: with setfiles' hard link
   * check, what such a part holds is listed before the walk ({@link BoundTwice}), which went by
   * recursion, a stack frame and a descriptor a level, until the stack ran out
   * (StackOverflowError): the whole root was reported as an internal error and left unwalked. The
   * run goes on a thread with a small stack (the root is labelled, and the part listed, on the
   * caller's), as a deeper tree would on any (~19,500 levels on the CLI's main thread).
   */
  @Test
  void aTreeThousandsDeepInAPartShownTwiceIsWalked() throws Exception {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path source = Files.createDirectory(tree.resolve("source"));
    Path bound = Files.createDirectory(tree.resolve("bound"));
    int depth = 3_000;
    // Java's file API fails past PATH_MAX; Python's goes one relative component at a time.
    DiskLabels.bash(dir, "cd " + source + " && python3 -c \"import os\nfor i in range(" + depth
        + "): os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()\"");
    try {
      mount(List.of("mount", "--bind", source.toString(), bound.toString()), bound);
      RelabelReport report = SmallStack.call(() -> run(matcher, RelabelOptions.defaults(), RelabelListener.NONE, tree));
      assertEquals(List.of(), report.failures().stream().map(f -> f.pathText() + ": " + f.message()).toList());
      // Read back one directory at a time, as the walker went.
      byte[] d = {'d'};
      int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, Kernel.nul(PathBytes.of(source)), PathBytes.of(source));
      try {
        for (int i = 0; i < depth; i++) {
          int next = KERNEL.openDirectory(fd, Kernel.nul(d), d);
          KERNEL.close(fd);
          fd = next;
        }
        assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(fd, "leaf".getBytes(StandardCharsets.US_ASCII)));
      } finally {
        KERNEL.close(fd);
      }
    } finally {
      // Java's file API cannot delete it either.
      DiskLabels.bash(dir, "rm -rf " + source.resolve("d"));
    }
  }

  @Test
  void aRootIsWalkedOnTheFilesystemItsLookupMounts() throws Exception {
    // selinux_restorecon statfs's a root it walks before fts reads the root's status: on an
    // automount point that lookup mounts what the point stands for, whose root is then labelled
    // and walked, -x keeping to it (the SELinux VM tests compare this with restorecon on a systemd
    // automount). This host has no autofs: the hook mounts a tmpfs where the walk asks for the
    // root's filesystem type, as the kernel mounts one there.
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    Path point = Files.createDirectory(tree.resolve("point"));
    DiskLabels.set(point, OLD);
    List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    FileTree automounting = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("filesystemTypeAt")) {
        asked.add(new String(path, StandardCharsets.ISO_8859_1));
        try {
          mountTmpfs(point);
          DiskLabels.set(point, OLD);
          file("point/inner", OLD);
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
    });
    RelabelReport report;
    try (Relabeler relabeler = new Relabeler(matcher, Set.of(), RelabelOptions.defaults().withOneFilesystem(true),
        automounting, RelabelListener.NONE)) {
      report = relabeler.run(List.of(point));
    }
    assertEquals(List.of(point.toString()), asked, "the root's filesystem asked for once");
    assertEquals(List.of(), report.failures());
    assertEquals(2, report.visited(), "the mounted root and its file");
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(point), "the mounted filesystem's root");
    assertEquals("staff_u:staff_r:etc_t:s0-s0:c1", DiskLabels.get(point.resolve("inner")),
        "-x keeps to the mounted filesystem, not the one the point is on");
  }

  // ---------------------------------------------------------------------------------------------
  // Hard links

  private static final String A = "system_u:object_r:a_t:s0";
  private static final String B = "system_u:object_r:b_t:s0";

  /** TREE/a/f and TREE/b/g: one inode whose names get different specs; directories already right. */
  private LabelMatcher hardLinkTree() throws IOException {
    LabelMatcher matcher = policy(
        "TREE(/.*)?  system_u:object_r:etc_t:s0",
        "TREE/a(/.*)?  system_u:object_r:a_t:s0",
        "TREE/b(/.*)?  system_u:object_r:b_t:s0");
    Path f = file("a/f", OLD);
    Files.createDirectories(tree.resolve("b"));
    Files.createLink(tree.resolve("b/g"), f);
    DiskLabels.set(tree, "system_u:object_r:etc_t:s0");
    DiskLabels.set(tree.resolve("a"), A);
    DiskLabels.set(tree.resolve("b"), B);
    return matcher;
  }

  @Test
  void aHardLinkWithConflictingSpecsWarnsOnceAndKeepsTheFirstNamesLabel() throws IOException {
    LabelMatcher matcher = hardLinkTree();
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, RelabelOptions.defaults(), listener, tree);
    assertEquals(List.of(), report.failures());
    assertEquals(1, listener.warnings.size(), listener.warnings.toString());
    assertEquals(1, report.relabeled());
    String label = DiskLabels.get(tree.resolve("a/f"));
    Path first = label.equals("staff_u:staff_r:a_t:s0-s0:c1") ? tree.resolve("a/f") : tree.resolve("b/g");
    Path second = first.equals(tree.resolve("a/f")) ? tree.resolve("b/g") : tree.resolve("a/f");
    assertEquals(first.equals(tree.resolve("a/f")) ? "staff_u:staff_r:a_t:s0-s0:c1" : "staff_u:staff_r:b_t:s0-s0:c1",
        label);
    assertEquals("conflicting specifications for " + second + " and " + first + ", using "
        + (first.equals(tree.resolve("a/f")) ? A : B) + ".", listener.warnings.peek());
  }

  @Test
  void skipMultiLinkedLeavesHardLinkedFilesAlone() throws IOException {
    LabelMatcher matcher = hardLinkTree();
    Path single = file("a/single", OLD);
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, RelabelOptions.defaults().withSkipMultiLinked(true), listener, tree);
    assertEquals(OLD, DiskLabels.get(tree.resolve("a/f")));
    assertEquals("staff_u:staff_r:a_t:s0-s0:c1", DiskLabels.get(single));
    assertEquals(List.of(), List.copyOf(listener.warnings));
    assertEquals(1, report.relabeled());
  }

  @Test
  void withoutTheHardLinkCheckEveryNameIsLabelledAndNothingWarned() throws IOException {
    LabelMatcher matcher = hardLinkTree();
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, RelabelOptions.defaults().withHardLinkCheck(false), listener, tree);
    assertEquals(List.of(), List.copyOf(listener.warnings));
    assertEquals(2, report.relabeled(), "both names are relabelled, the second over the first");
    List<String> changed = listener.changes.stream().map(RelabelReport.Change::pathText).sorted().toList();
    assertEquals(List.of(tree.resolve("a/f").toString(), tree.resolve("b/g").toString()), changed);
    String label = DiskLabels.get(tree.resolve("a/f"));
    assertTrue(label.equals("staff_u:staff_r:a_t:s0-s0:c1") || label.equals("staff_u:staff_r:b_t:s0-s0:c1"), label);
  }

  @Test
  void aDryRunReportsOneChangePerHardLinkedInode() throws IOException {
    LabelMatcher matcher = policy("TREE(/.*)?  system_u:object_r:etc_t:s0");
    labelDirectories("system_u:object_r:etc_t:s0", tree);
    Path f = file("f", OLD);
    Files.createLink(tree.resolve("g"), f);
    RecordingListener dry = new RecordingListener();
    assertEquals(1, run(matcher, RelabelOptions.defaults().withDryRun(true), dry, tree).relabeled());
    assertEquals(OLD, DiskLabels.get(f));
    RecordingListener real = new RecordingListener();
    assertEquals(1, run(matcher, RelabelOptions.defaults(), real, tree).relabeled());
    assertEquals(real.changeLines(), dry.changeLines());
  }

  // ---------------------------------------------------------------------------------------------
  // Names

  @Test
  void pathsLongerThanPathMaxAreLabelled() throws Exception {
    LabelMatcher matcher = policy(
        "TREE(/.*)?  system_u:object_r:etc_t:s0",
        "TREE/.*/leaf  --  system_u:object_r:leaf_t:s0");
    String name = "d".repeat(255);
    int depth = 20; // 20 * 256 bytes: past PATH_MAX (4096)
    // Java's file API fails past PATH_MAX; bash's cd goes one relative component at a time.
    DiskLabels.bash(dir, "cd " + tree + " && for i in $(seq " + depth + "); do mkdir " + name + " && cd " + name
        + " || exit 1; done && touch leaf");
    try {
      RelabelReport report = run(matcher, RelabelOptions.defaults().withThreads(2), RelabelListener.NONE, tree);
      assertEquals(List.of(), report.failures());
      assertEquals(depth + 2, report.visited());
      assertEquals(depth + 2, report.relabeled());
      // Read back one directory at a time, as the walker went.
      byte[] component = name.getBytes(StandardCharsets.US_ASCII);
      int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, Kernel.nul(PathBytes.of(tree)), PathBytes.of(tree));
      int length = tree.toString().length();
      try {
        for (int i = 0; i < depth; i++) {
          assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(fd, component), "level " + i);
          int next = KERNEL.openDirectory(fd, Kernel.nul(component), component);
          KERNEL.close(fd);
          fd = next;
          length += 1 + name.length();
        }
        assertTrue(length > 4096, "deeper than PATH_MAX: " + length);
        assertEquals("system_u:object_r:leaf_t:s0", DiskLabels.get(fd, "leaf".getBytes(StandardCharsets.US_ASCII)));
      } finally {
        KERNEL.close(fd);
      }
    } finally {
      // Java's file API cannot delete it either.
      DiskLabels.bash(dir, "rm -rf " + tree.resolve(name));
    }
  }

  @Test
  void namesThatAreNotUtf8OrHoldANewlineAreLabelled() throws Exception {
    LabelMatcher matcher = policy(
        "TREE(/.*)?  system_u:object_r:etc_t:s0",
        "TREE/new.line  --  system_u:object_r:newline_t:s0",
        // Policies are ASCII; their escapes match any byte.
        "TREE/bad\\xff\\xfename  --  system_u:object_r:bytes_t:s0",
        "TREE/dir\\xff/.*  system_u:object_r:inner_t:s0");
    DiskLabels.bash(dir, "cd " + tree + " && touch $'new\\nline' $'bad\\xff\\xfename' && mkdir $'dir\\xff'"
        + " && touch $'dir\\xff/in\\x80side'");
    RelabelReport report = run(matcher, RelabelOptions.defaults(), RelabelListener.NONE, tree);
    assertEquals(List.of(), report.failures());
    assertEquals(5, report.visited());

    Map<String, String> labels = new TreeMap<>();
    byte[] treeBytes = PathBytes.of(tree);
    int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, Kernel.nul(treeBytes), treeBytes);
    try {
      for (DirEntry entry : KERNEL.readDirectory(fd, treeBytes)) {
        labels.put(new String(entry.name(), StandardCharsets.ISO_8859_1), DiskLabels.get(fd, entry.name()));
      }
      byte[] sub = {'d', 'i', 'r', (byte) 0xff};
      int subFd = KERNEL.openDirectory(fd, Kernel.nul(sub), sub);
      try {
        labels.put("dir\u00ff/in\u0080side", DiskLabels.get(subFd, new byte[] {'i', 'n', (byte) 0x80, 's', 'i', 'd', 'e'}));
      } finally {
        KERNEL.close(subFd);
      }
    } finally {
      KERNEL.close(fd);
    }
    assertEquals(Map.of(
        "new\nline", "system_u:object_r:newline_t:s0",
        "bad\u00ff\u00fename", "system_u:object_r:bytes_t:s0",
        "dir\u00ff", "system_u:object_r:etc_t:s0",
        "dir\u00ff/in\u0080side", "system_u:object_r:inner_t:s0"), labels);
  }
}
