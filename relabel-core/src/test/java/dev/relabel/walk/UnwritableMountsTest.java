package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.Errno;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filesystems where no label can be written: a tmpfs remounted read-only (every setxattr fails
 * with EROFS) and a ramfs, which has no security.* attributes (ENOTSUP). Each entry on them is
 * reported with its errno, the walk goes on beneath and past them, and everything else is
 * labelled. Checked against Debian's setfiles, which reports the same entries with the same
 * errors: the same roots given to both (setfiles never crosses a mount point), and the engine
 * also crossing into them from their parent, as it does without {@code -x}.
 */
class UnwritableMountsTest {
  private static final String OLD = "system_u:object_r:old_t:s0";
  private static final String NEW = "system_u:object_r:new_t:s0";
  private static final List<String> INSIDE = List.of("", "/x", "/sub", "/sub/y");

  @TempDir Path dir;
  private Path tree;
  private Path readOnly;
  private Path noXattr;
  private final List<Path> mounts = new ArrayList<>();
  private Path policy;

  @BeforeEach
  void mount() throws Exception {
    AttrTrees.requireTools(true);
    tree = Files.createDirectory(dir.resolve("tree"));
    readOnly = Files.createDirectory(tree.resolve("ro"));
    noXattr = Files.createDirectory(tree.resolve("noxattr"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-ro", readOnly.toString()), readOnly);
    populate(readOnly);
    for (String entry : INSIDE) {
      AttrTrees.setLabel(Path.of(readOnly + entry), OLD, dir);
    }
    DiskLabels.bash(dir, "mount -o remount,ro " + readOnly);
    mount(List.of("mount", "-t", "ramfs", "relabel-noxattr", noXattr.toString()), noXattr);
    populate(noXattr);
    policy = TestPolicy.write(dir.resolve("policy"), dir + "(/.*)?  " + NEW);
  }

  private void mount(List<String> command, Path at) throws Exception {
    AttrTrees.mount(command, dir);
    mounts.add(at);
  }

  private static void populate(Path root) throws Exception {
    Files.createDirectory(root.resolve("sub"));
    Files.createFile(root.resolve("x"));
    Files.createFile(root.resolve("sub/y"));
  }

  @AfterEach
  void unmount() throws Exception {
    for (Path mount : mounts) {
      DiskLabels.bash(dir, "umount " + mount);
    }
  }

  /** An ordinary directory with a few files, every entry OLD. */
  private Path plain(String name) throws Exception {
    Path p = Files.createDirectory(tree.resolve(name));
    populate(p);
    for (String entry : INSIDE) {
      AttrTrees.setLabel(Path.of(p + entry), OLD, dir);
    }
    return p;
  }

  /** The entries that failed as "PATH: errno". */
  private static TreeSet<String> failures(RelabelReport report) {
    TreeSet<String> failed = new TreeSet<>();
    for (RelabelReport.Failure failure : report.failures()) {
      failed.add(failure.pathText() + ": " + failure.errno());
    }
    return failed;
  }

  private TreeSet<String> expectedFailures() {
    TreeSet<String> expected = new TreeSet<>();
    for (String entry : INSIDE) {
      expected.add(readOnly + entry + ": " + Errno.EROFS);
      expected.add(noXattr + entry + ": " + Errno.ENOTSUP);
    }
    return expected;
  }

  @Test
  void everyEntryOnThemIsReportedAsSetfilesReportsItAndTheWalkGoesOn() throws Exception {
    Path theirs = plain("after-setfiles");
    Path mine = plain("after-ours");
    AttrTrees.Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), policy.toString(),
        readOnly.toString(), noXattr.toString(), theirs.toString()), dir);
    LabelMatcher matcher = TestPolicy.matcher(dir.resolve("policy"), dir + "(/.*)?  " + NEW);
    RelabelOptions options = RelabelOptions.defaults().withThreads(2).withCheckSeclabel(false);
    RelabelReport report = Relabeler.onDisk(matcher, options, RelabelListener.NONE)
        .run(List.of(readOnly, noXattr, mine));

    // setfiles: "ARGV0: Could not set context for PATH:  REASON", one per entry, status 255.
    assertEquals(255, setfiles.status(), setfiles::toString);
    TreeSet<String> theirFailures = new TreeSet<>();
    for (String line : setfiles.errLines()) {
      String head = "Could not set context for ";
      String[] parts = line.substring(line.indexOf(head) + head.length()).split(":  ");
      theirFailures.add(parts[0] + ": " + switch (parts[1]) {
        case "Read-only file system" -> Errno.EROFS;
        case "Operation not supported" -> Errno.ENOTSUP;
        default -> throw new AssertionError(line);
      });
    }
    assertEquals(expectedFailures(), theirFailures, setfiles::toString);
    assertEquals(theirFailures, failures(report));

    Map<String, String> theirLabels = AttrTrees.labels(theirs, dir);
    assertEquals(theirLabels, AttrTrees.labels(mine, dir));
    assertEquals(new TreeSet<>(List.of(AttrTrees.hex(NEW))), new TreeSet<>(theirLabels.values()));
  }

  @Test
  void crossingIntoThemFromTheirParentReportsEachEntryAndLabelsTheRest() throws Exception {
    Path plain = plain("plain");
    LabelMatcher matcher = TestPolicy.matcher(dir.resolve("policy"), dir + "(/.*)?  " + NEW);
    RelabelOptions options = RelabelOptions.defaults().withThreads(2).withCheckSeclabel(false);
    RelabelReport report = Relabeler.onDisk(matcher, options, RelabelListener.NONE).run(List.of(tree));
    assertEquals(expectedFailures(), failures(report));
    assertEquals(1 + 3 * INSIDE.size(), report.visited(), report.toString());
    Map<String, String> labels = new TreeMap<>(AttrTrees.labels(plain, dir));
    labels.put("tree", AttrTrees.label(tree, dir) == null ? "<none>" : AttrTrees.hex(AttrTrees.label(tree, dir)));
    assertEquals(new TreeSet<>(List.of(AttrTrees.hex(NEW))), new TreeSet<>(labels.values()), labels.toString());
    // The read-only mount kept its labels, byte for byte.
    for (String entry : INSIDE) {
      assertEquals(OLD, AttrTrees.label(Path.of(readOnly + entry), dir), entry);
    }
  }

}
