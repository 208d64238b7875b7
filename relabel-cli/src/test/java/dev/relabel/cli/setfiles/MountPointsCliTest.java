package dev.relabel.cli.setfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.relabel.cli.Trees;
import dev.relabel.fixtures.AttrTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel setfiles} and Debian's setfiles on a tree with mounts inside it. setfiles never
 * crosses into another filesystem, and decides by device, as fts's {@code FTS_XDEV}: a tmpfs on a
 * subdirectory and a tmpfs file bind-mounted over a file are neither labelled nor (the directory)
 * walked; a directory and a file bind-mounted from the tree's own filesystem are labelled and
 * walked. The file bind mount is how a container runtime puts {@code /etc/hosts} and
 * {@code /etc/resolv.conf} in place, so a setfiles run inside a container meets it. Each tool gets
 * a tree of its own, mounts and their sources included, so that neither sees what the other wrote.
 */
class MountPointsCliTest {
  private static final String NEW = "system_u:object_r:new_t:s0";

  @TempDir Path dir;
  private final List<Path> mounts = new ArrayList<>();

  @BeforeEach
  void tools() {
    AttrTrees.requireTools(true);
  }

  /** A side's tree, {@code side/tree}, with its four mounts; their sources lie beside it. */
  private Path build(Path side) throws Exception {
    Path tree = Files.createDirectories(side.resolve("tree"));
    Files.createFile(tree.resolve("a"));
    Files.createDirectory(tree.resolve("sub"));
    Files.createFile(tree.resolve("sub/b"));
    Path tmpfs = Files.createDirectory(side.resolve("tmpfs"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-src", tmpfs.toString()), tmpfs);
    Files.createFile(tmpfs.resolve("hosts"));
    Path mounted = Files.createDirectory(tree.resolve("mnt"));
    mount(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "relabel-mnt", mounted.toString()), mounted);
    Files.createFile(mounted.resolve("x"));
    Files.createDirectory(mounted.resolve("y"));
    Files.createFile(mounted.resolve("y/z"));
    Path hosts = Files.createFile(tree.resolve("hosts"));
    mount(List.of("mount", "--bind", tmpfs.resolve("hosts").toString(), hosts.toString()), hosts);
    Path same = Files.createDirectories(side.resolve("same/c"));
    Files.createFile(same.resolve("d"));
    Path boundDirectory = Files.createDirectory(tree.resolve("dbind"));
    mount(List.of("mount", "--bind", side.resolve("same").toString(), boundDirectory.toString()), boundDirectory);
    Path sameFile = Files.createFile(side.resolve("samefile"));
    Path boundFile = Files.createFile(tree.resolve("fbind"));
    mount(List.of("mount", "--bind", sameFile.toString(), boundFile.toString()), boundFile);
    return tree;
  }

  private void mount(List<String> command, Path at) throws Exception {
    AttrTrees.mount(command, dir);
    mounts.add(at);
  }

  @AfterEach
  void unmount() throws Exception {
    AttrTrees.unmountAll(mounts, dir);
  }

  @Test
  void labelsAndSkipsWhatSetfilesDoes() throws Exception {
    Path policy = Files.writeString(dir.resolve("file_contexts"), dir + "(/.*)?\t" + NEW + "\n");
    Path theirSide = Files.createDirectory(dir.resolve("theirs"));
    Path ourSide = Files.createDirectory(dir.resolve("ours"));
    Path theirs = build(theirSide);
    Path ours = build(ourSide);

    AttrTrees.Run checked = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-n", "-v", policy.toString(),
        theirs.toString()), dir);
    for (String threads : List.of("1", "2")) {
      AttrTrees.Run ourCheck = Trees.relabel(List.of("setfiles", "-n", "-v", "-T", threads, policy.toString(),
          ours.toString()));
      SetfilesCliDifferentialTest.assertSameRun(checked, theirs, ourCheck, ours);
    }
    assertEquals(8, checked.outLines().size(), "the tree, a, sub, sub/b, dbind, dbind/c, dbind/c/d, fbind: "
        + checked);

    AttrTrees.Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-v", policy.toString(),
        theirs.toString()), dir);
    AttrTrees.Run relabel = Trees.relabel(List.of("setfiles", "-v", "-T", "2", policy.toString(), ours.toString()));
    SetfilesCliDifferentialTest.assertSameRun(setfiles, theirs, relabel, ours);
    Map<String, String> ourLabels = AttrTrees.labels(ourSide, dir);
    assertEquals(AttrTrees.labels(theirSide, dir), ourLabels);

    String labelled = AttrTrees.hex(NEW);
    assertEquals(labelled, ourLabels.get("same/c/d"), "walked through the directory bind mount");
    assertEquals(labelled, ourLabels.get("samefile"), "labelled through the file bind mount");
    assertNull(AttrTrees.label(ours.resolve("mnt"), dir), "the tmpfs mount point");
    assertNull(AttrTrees.label(ours.resolve("mnt/y/z"), dir), "inside the tmpfs");
    assertNull(AttrTrees.label(ourSide.resolve("tmpfs/hosts"), dir), "the tmpfs file bind-mounted over hosts");
  }
}
