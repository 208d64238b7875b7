package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directory digests ({@code -D}, {@code -I}) on real directories: what is stored, when a tree is
 * skipped, and when nothing may be stored. Needs root for {@code security.*} attributes.
 */
class DigestWalkTest {
  private static final Kernel KERNEL = Kernel.linux();

  private static final String WRONG = "system_u:object_r:tmp_t:s0";

  @TempDir Path dir;
  private Path tree;
  private LabelMatcher matcher;

  @BeforeEach
  void layout() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    Files.createDirectories(tree.resolve("etc/ssh"));
    Files.createDirectories(tree.resolve("var/log"));
    Files.writeString(tree.resolve("etc/ssh/sshd_config"), "");
    Files.writeString(tree.resolve("var/log/syslog"), "");
    matcher = policy("system_u:object_r:etc_t:s0");
  }

  /** A policy for the tree (matched with -r) whose /etc files get {@code etcContext}. */
  private LabelMatcher policy(String etcContext) throws IOException {
    return TestPolicy.matcher(dir.resolve("policy-" + etcContext.hashCode()),
        "/.* system_u:object_r:default_t:s0",
        "/etc(/.*)? " + etcContext,
        "/var/log(/.*)? system_u:object_r:var_log_t:s0");
  }

  private RelabelReport run(LabelMatcher policy, DirectoryDigests digests, RecordingListener listener) throws IOException {
    return run(policy, RelabelOptions.defaults().withAlternateRoot(tree).withDigests(digests), listener);
  }

  private RelabelReport run(LabelMatcher policy, RelabelOptions options, RecordingListener listener) throws IOException {
    return Relabeler.onDisk(policy, options, listener).run(List.of(tree));
  }

  private static byte[] digestOf(Path p) throws NativeIoException {
    byte[] path = PathBytes.of(p);
    return KERNEL.getDigest(Kernel.AT_FDCWD, Kernel.nul(path), path);
  }

  private String key(Path directory) {
    String relative = tree.relativize(directory).toString();
    return "/" + relative;
  }

  private List<Path> directories() throws IOException {
    try (Stream<Path> all = Files.walk(tree)) {
      return all.filter(Files::isDirectory).toList();
    }
  }

  @Test
  void storesThePolicysDigestOnEveryDirectoryAndNoFile() throws Exception {
    RelabelReport report = run(matcher, DirectoryDigests.SKIP_UNCHANGED, new RecordingListener());
    assertEquals(List.of(), report.failures());
    for (Path directory : directories()) {
      // With -r, the digest of the path as matched: below the alternate root.
      byte[] expected = matcher.partialMatchDigest(key(directory)).orElseThrow();
      assertArrayEquals(expected, digestOf(directory), directory.toString());
    }
    assertNull(digestOf(tree.resolve("etc/ssh/sshd_config")));
    // Different subtrees are covered by different specs, so their digests differ.
    assertTrue(!java.util.Arrays.equals(digestOf(tree.resolve("etc")), digestOf(tree.resolve("var/log"))));
  }

  /**
   * A root named through a symlink to its parent ({@code /srv/link/tree}, link a directory): the
   * digests, stored from the root's parent once the walk is done, reach it as the walk did.
   */
  @Test
  void storesDigestsUnderARootNamedThroughASymlink() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link"), dir);
    RelabelReport report = Relabeler.onDisk(matcher, RelabelOptions.defaults().withDigests(DirectoryDigests.SKIP_UNCHANGED),
        RelabelListener.NONE).run(List.of(link.resolve("tree")));
    assertEquals(List.of(), report.failures());
    for (Path directory : directories()) {
      assertArrayEquals(matcher.partialMatchDigest(PathBytes.latin1(PathBytes.of(link.resolve(dir.relativize(directory)))))
          .orElseThrow(), digestOf(directory), directory.toString());
    }
  }

  @Test
  void anUnchangedTreeIsSkippedWholeAndAnIgnoredDigestIsNot() throws Exception {
    run(matcher, DirectoryDigests.SKIP_UNCHANGED, new RecordingListener());
    DiskLabels.set(tree.resolve("etc/ssh/sshd_config"), WRONG);

    RecordingListener skipping = new RecordingListener();
    RelabelReport report = run(matcher, DirectoryDigests.SKIP_UNCHANGED, skipping);
    assertEquals(List.of(tree.toString()), List.copyOf(skipping.skipped));
    assertEquals(0, report.visited());
    assertEquals(WRONG, DiskLabels.get(tree.resolve("etc/ssh/sshd_config")));

    RecordingListener ignoring = new RecordingListener();
    report = run(matcher, DirectoryDigests.REFRESH, ignoring);
    assertEquals(List.of(), List.copyOf(ignoring.skipped));
    assertEquals(1, report.relabeled());
    assertEquals("system_u:object_r:etc_t:s0", DiskLabels.get(tree.resolve("etc/ssh/sshd_config")));
  }

  @Test
  void aPolicyChangeRelabelsOnlyTheSubtreesItCanReach() throws Exception {
    run(matcher, DirectoryDigests.SKIP_UNCHANGED, new RecordingListener());
    DiskLabels.set(tree.resolve("etc/ssh/sshd_config"), WRONG);
    DiskLabels.set(tree.resolve("var/log/syslog"), WRONG);

    LabelMatcher changed = policy("system_u:object_r:etc_runtime_t:s0");
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(changed, DirectoryDigests.SKIP_UNCHANGED, listener);
    assertEquals(List.of(), report.failures());
    // The root and etc are re-walked (the changed spec can label beneath them); var is not.
    assertEquals(List.of(tree.resolve("var").toString()), List.copyOf(listener.skipped));
    assertEquals("system_u:object_r:etc_runtime_t:s0", DiskLabels.get(tree.resolve("etc/ssh/sshd_config")));
    assertEquals(WRONG, DiskLabels.get(tree.resolve("var/log/syslog")));
    assertArrayEquals(changed.partialMatchDigest("/etc").orElseThrow(),
        digestOf(tree.resolve("etc")));
  }

  @Test
  void aDryRunStoresNothing() throws Exception {
    run(matcher, RelabelOptions.defaults().withAlternateRoot(tree).withDigests(DirectoryDigests.SKIP_UNCHANGED)
        .withDryRun(true), new RecordingListener());
    for (Path directory : directories()) {
      assertNull(digestOf(directory), directory.toString());
    }
  }

  @Test
  void withoutDigestsNothingIsReadOrStored() throws Exception {
    run(matcher, DirectoryDigests.SKIP_UNCHANGED, new RecordingListener());
    DiskLabels.set(tree.resolve("etc/ssh/sshd_config"), WRONG);
    RecordingListener listener = new RecordingListener();
    RelabelReport report = run(matcher, DirectoryDigests.OFF, listener);
    assertEquals(1, report.relabeled());
    assertEquals(List.of(), List.copyOf(listener.skipped));
  }

  @Test
  void aFailureAnywhereUnderTheRootStoresNoDigest() throws Exception {
    HookedFileTree failing = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      if (operation.equals("setLabel") && new String(path).endsWith("syslog")) {
        throw dev.relabel.nativeio.TestErrno.exception("setxattrat", path, dev.relabel.nativeio.Errno.EROFS);
      }
    });
    DiskLabels.set(tree.resolve("var/log/syslog"), WRONG);
    RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(tree).withDigests(DirectoryDigests.SKIP_UNCHANGED);
    RelabelReport report = new Relabeler(matcher, java.util.Set.of(), options, failing, RelabelListener.NONE)
        .run(List.of(tree));
    assertEquals(1, report.failures().size());
    for (Path directory : directories()) {
      assertNull(digestOf(directory), directory.toString());
    }
  }

  @Test
  void aTmpfsRootKeepsNoDigests() throws Exception {
    Path shm = Path.of("/dev/shm");
    assertTrue(Files.isDirectory(shm), "this test needs /dev/shm");
    Path volatileTree = Files.createTempDirectory(shm, "relabel-digest");
    try {
      Files.createDirectories(volatileTree.resolve("etc"));
      assertEquals(0x01021994L, KERNEL.filesystemType(KERNEL.openDirectory(Kernel.AT_FDCWD,
          Kernel.nul(PathBytes.of(volatileTree)), PathBytes.of(volatileTree)), PathBytes.of(volatileTree)),
          "/dev/shm must be tmpfs here");
      RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(volatileTree)
          .withDigests(DirectoryDigests.SKIP_UNCHANGED);
      RelabelReport report = Relabeler.onDisk(matcher, options, RelabelListener.NONE).run(List.of(volatileTree));
      assertEquals(2, report.visited());
      assertNull(digestOf(volatileTree));
      assertNull(digestOf(volatileTree.resolve("etc")));
    } finally {
      DiskLabels.bash(dir, "rm -rf " + volatileTree);
    }
  }

  @Test
  void aDirectoryReplacedBeforeItsDigestIsStoredDoesNotGetIt() throws Exception {
    Path etc = tree.resolve("etc");
    HookedFileTree swapping = new HookedFileTree(new NativeFileTree(), (operation, name, path) -> {
      // Between the walk and the store: the store phase stats each directory before writing.
      if (operation.equals("setDigest") && new String(path).endsWith("/tree/etc")) {
        throw new AssertionError("the swapped directory must not be written");
      }
    });
    RelabelOptions options = RelabelOptions.defaults().withAlternateRoot(tree).withDigests(DirectoryDigests.SKIP_UNCHANGED);
    RecordingListener listener = new RecordingListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        super.changed(change);
        // Once etc's file has been labelled, swap etc for another directory of the same name.
        if (change.pathText().endsWith("sshd_config")) {
          try {
            Files.move(etc, dir.resolve("old-etc"));
            Files.createDirectory(etc);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
    };
    DiskLabels.set(tree.resolve("etc/ssh/sshd_config"), WRONG);
    new Relabeler(matcher, java.util.Set.of(), options.withThreads(1), swapping, listener).run(List.of(tree));
    assertNull(digestOf(etc));
    assertNotNull(digestOf(tree.resolve("var")));
    assertTrue(listener.warnings.stream().anyMatch(w -> w.contains("/tree/etc") && w.contains("replaced")),
        listener.warnings.toString());
  }
}
