package dev.relabel.cli.setfiles;

import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel setfiles -v} and Debian's setfiles given the same roots: a read-only tmpfs
 * (EROFS), a ramfs without security.* attributes (ENOTSUP), then an ordinary directory. Both must
 * report every entry on the two mounts with the same words, go on to label the directory the
 * same way, and exit 255.
 */
class UnwritableMountsCliTest {
  private static final String NEW = "system_u:object_r:new_t:s0";

  @TempDir Path dir;
  private final List<Path> mounts = new ArrayList<>();
  private Path readOnly;
  private Path noXattr;

  @BeforeEach
  void mount() throws Exception {
    AttrTrees.requireTools(true);
    readOnly = Files.createDirectory(dir.resolve("ro"));
    noXattr = Files.createDirectory(dir.resolve("noxattr"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-ro", readOnly.toString()), readOnly);
    populate(readOnly);
    AttrTrees.check(List.of("mount", "-o", "remount,ro", readOnly.toString()), dir);
    mount(List.of("mount", "-t", "ramfs", "relabel-noxattr", noXattr.toString()), noXattr);
    populate(noXattr);
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
    AttrTrees.unmountAll(mounts, dir);
  }

  @Test
  void bothReportEveryEntryAlikeAndGoOn() throws Exception {
    Path policy = Files.writeString(dir.resolve("file_contexts"), dir + "(/.*)?\t" + NEW + "\n");
    Path theirs = Files.createDirectory(dir.resolve("after-setfiles"));
    Path ours = Files.createDirectory(dir.resolve("after-ours"));
    populate(theirs);
    populate(ours);
    AttrTrees.Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-v", policy.toString(),
        readOnly.toString(), noXattr.toString(), theirs.toString()), dir);
    AttrTrees.Run relabel = Trees.relabel(List.of("setfiles", "-v", policy.toString(), readOnly.toString(),
        noXattr.toString(), ours.toString()));
    SetfilesCliDifferentialTest.assertSameRun(setfiles, theirs, relabel, ours);
    assertEquals(255, relabel.status(), relabel::toString);
    assertEquals(8, relabel.errLines().size(), relabel::toString);
    assertTrue(relabel.err().contains(readOnly + "/sub/y:  Read-only file system\n"), relabel::toString);
    assertTrue(relabel.err().contains(noXattr + "/sub/y:  Operation not supported\n"), relabel::toString);
    assertEquals(4, relabel.outLines().size(), "the ordinary directory labelled: " + relabel);
    assertEquals(AttrTrees.labels(theirs, dir), AttrTrees.labels(ours, dir));
  }
}
