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

  /**
   * A directory of the tree bound onto another of its names, and a file onto another name beside
   * it: the walk meets each inode under two names, each with one link, and the policy gives the
   * two names different labels. setfiles labels the inode by the name it meets first and reports
   * the other as conflicting, as it does a hard link; so does relabel, by the smaller name (at
   * every -T): the names are picked so that setfiles meets the smaller first. Labelled name by
   * name instead, the inode would end with the second name's label, and at -T 2 a mixture.
   */
  @Test
  void labelsWhatABindMountShowsTwiceAsSetfilesDoes() throws Exception {
    List<String> names = Trees.listedInByteOrder(dir, 2);
    String first = names.get(0);
    String second = names.get(1);
    Path policy = Files.writeString(dir.resolve("file_contexts"),
        dir + "(/.*)?\tsystem_u:object_r:tree_t:s0\n"
        + dir + "/[^/]+/tree/" + first + "(/.*)?\tsystem_u:object_r:first_t:s0\n"
        + dir + "/[^/]+/tree/" + second + "(/.*)?\tsystem_u:object_r:second_t:s0\n"
        + dir + "/[^/]+/tree/files/" + first + "\tsystem_u:object_r:first_file_t:s0\n"
        + dir + "/[^/]+/tree/files/" + second + "\tsystem_u:object_r:second_file_t:s0\n");
    // Each way also with the tree named through a symlink to its side (the mount table names
    // mount points by their real paths).
    for (String threads : List.of("1", "2")) {
      for (boolean dryRun : List.of(true, false)) {
        for (boolean viaSymlink : List.of(false, true)) {
          compareBoundTwice(policy, first, second, threads, dryRun, viaSymlink);
        }
      }
    }
  }

  private void compareBoundTwice(Path policy, String first, String second, String threads, boolean dryRun,
      boolean viaSymlink) throws Exception {
    String run = threads + dryRun + viaSymlink;
    Path theirSide = Files.createDirectory(dir.resolve("theirs-" + run));
    Path ourSide = Files.createDirectory(dir.resolve("ours-" + run));
    Path theirs = boundTwice(theirSide, first, second);
    Path ours = boundTwice(ourSide, first, second);
    if (viaSymlink) {
      theirs = Files.createSymbolicLink(dir.resolve("via-theirs-" + run), theirSide).resolve("tree");
      ours = Files.createSymbolicLink(dir.resolve("via-ours-" + run), ourSide).resolve("tree");
    }
    AttrTrees.Run checked = SetfilesCliDifferentialTest.sameAsSetfiles(dir,
        dryRun ? List.of("-n", "-v") : List.of("-v"), List.of("-T", threads), policy, theirs, ours);
    assertEquals(5, checked.errLines().stream().filter(l -> l.contains("conflicting specifications")).count(),
        "the bound directory, its file, subdirectory and the file in it, and the bound file: " + checked);
    Map<String, String> ourLabels = AttrTrees.labels(ourSide, dir);
    assertEquals(AttrTrees.labels(theirSide, dir), ourLabels);
    if (!dryRun) {
      assertEquals(AttrTrees.hex("system_u:object_r:first_t:s0"), ourLabels.get("tree/" + first + "/sub/g"));
      assertEquals(AttrTrees.hex("system_u:object_r:first_file_t:s0"), ourLabels.get("tree/files/" + first));
    }
  }

  /**
   * A directory bound onto itself (as an admin does to remount it read-only) shows each name once:
   * relabel labels it in the walk, in fts's order at -T 1, not once the walk is done as it labels
   * what is shown twice.
   */
  @Test
  void aDirectoryBoundOntoItselfIsWalkedInFtsOrder() throws Exception {
    Path policy = Files.writeString(dir.resolve("file_contexts"), dir + "(/.*)?\t" + NEW + "\n");
    List<Path> trees = new ArrayList<>();
    for (String side : List.of("theirs", "ours")) {
      Path tree = Files.createDirectories(dir.resolve(side + "/tree"));
      for (String name : List.of("a", "self", "z")) {
        Files.createDirectories(tree.resolve(name + "/sub"));
        Files.createFile(tree.resolve(name + "/sub/file"));
      }
      mount(List.of("mount", "--bind", tree.resolve("self").toString(), tree.resolve("self").toString()),
          tree.resolve("self"));
      trees.add(tree);
    }
    AttrTrees.Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-v", policy.toString(),
        trees.get(0).toString()), dir);
    AttrTrees.Run relabel = Trees.relabel(List.of("setfiles", "-v", "-T", "1", policy.toString(), trees.get(1).toString()));
    SetfilesCliDifferentialTest.assertSameRun(setfiles, trees.get(0), relabel, trees.get(1));
    Trees.assertSameOrder(setfiles, trees.get(0), relabel, trees.get(1), null);
    assertEquals(10, setfiles.outLines().size(), "the tree and its nine entries: " + setfiles);
  }

  /**
   * Without the hard link check ({@code -A}, as restorecon and fixfiles label) each name is labelled
   * in turn, its label read when it is visited: the bound file's second name, met after the first
   * name was written, is written again, although its label as the directory's listing found it was
   * already the second name's. One worker, so that the order is the listing's.
   */
  @Test
  void readsABoundFilesLabelWhenItsSecondNameIsVisited() throws Exception {
    String[] names = Trees.listedInByteOrder(dir, 2).toArray(String[]::new);
    Path policy = Files.writeString(dir.resolve("file_contexts"),
        dir + "(/.*)?\tsystem_u:object_r:tree_t:s0\n"
        + dir + "/tree/files/" + names[0] + "\tsystem_u:object_r:first_file_t:s0\n"
        + dir + "/tree/files/" + names[1] + "\tsystem_u:object_r:second_file_t:s0\n");
    Path tree = boundTwice(dir, names[0], names[1]);
    AttrTrees.Run run = Trees.relabel(List.of("setfiles", "-A", "-v", "-T", "1", policy.toString(), tree.toString()));
    assertEquals(0, run.status(), run.toString());
    Path files = tree.resolve("files");
    assertEquals(List.of(
        "Relabeled " + files.resolve(names[0]) + " from system_u:object_r:second_file_t:s0 to system_u:object_r:first_file_t:s0",
        "Relabeled " + files.resolve(names[1]) + " from system_u:object_r:first_file_t:s0 to system_u:object_r:second_file_t:s0"),
        run.outLines().stream().filter(l -> l.contains("/files/" + names[0] + " ") || l.contains("/files/" + names[1] + " "))
            .toList());
    assertEquals("system_u:object_r:second_file_t:s0", AttrTrees.label(files.resolve(names[0]), dir));
  }

  /**
   * In {@code side/tree}: directory {@code first} (a file, a subdirectory, a file in it) bound onto
   * directory {@code second}, and in {@code files} the file {@code first} bound onto {@code second},
   * and a file hard-linked as {@code linked} and {@code linked-too}.
   * Every label starts as the second name's.
   */
  private Path boundTwice(Path side, String first, String second) throws Exception {
    Path tree = Files.createDirectories(side.resolve("tree"));
    Path source = Files.createDirectories(tree.resolve(first + "/sub"));
    Files.createFile(tree.resolve(first + "/f"));
    Files.createFile(source.resolve("g"));
    Path target = Files.createDirectory(tree.resolve(second));
    Path files = Files.createDirectory(tree.resolve("files"));
    Path file = Files.createFile(files.resolve(first));
    Path boundFile = Files.createFile(files.resolve(second));
    // A hard link beside them, which is labelled once the walk is done too.
    Files.createLink(files.resolve("linked-too"), Files.createFile(files.resolve("linked")));
    for (Path each : List.of(tree.resolve(first), tree.resolve(first + "/f"), source, source.resolve("g"))) {
      AttrTrees.setLabel(each, "system_u:object_r:second_t:s0", dir);
    }
    AttrTrees.setLabel(file, "system_u:object_r:second_file_t:s0", dir);
    mount(List.of("mount", "--bind", tree.resolve(first).toString(), target.toString()), target);
    mount(List.of("mount", "--bind", file.toString(), boundFile.toString()), boundFile);
    return tree;
  }

  /**
   * A directory of the tree bound onto one of its own subdirectories ({@code mount --bind / /mnt} is
   * the common case): fts meets the mount point as a directory it is already inside, a directory
   * cycle, which setfiles reports ("Directory cycle on PATH.", status 255) without entering it or
   * labelling it under that name. relabel too, at every -T and with -A, where it used to walk the
   * cycle and label the tree's inodes under the cycle's names, the last one met winning. Here the
   * cycle is the last entry setfiles meets (it stops its whole walk there): every label and line
   * the same.
   */
  @Test
  void reportsADirectoryCycleAndDoesNotEnterIt() throws Exception {
    List<String> names = Trees.listedInByteOrder(dir, 2);
    Path policy = Files.writeString(dir.resolve("file_contexts"),
        dir + "(/.*)?\tsystem_u:object_r:tree_t:s0\n"
        + dir + "/[^/]+/tree/" + names.get(1) + "(/.*)?\tsystem_u:object_r:cycle_t:s0\n");
    for (String options : List.of("-T 1", "-T 2", "-A -T 1", "-A -T 2")) {
      String run = options.replace(" ", "");
      Path theirs = cycled(Files.createDirectory(dir.resolve("theirs" + run)), names.get(0), names.get(1));
      Path ours = cycled(Files.createDirectory(dir.resolve("ours" + run)), names.get(0), names.get(1));
      AttrTrees.Run checked = SetfilesCliDifferentialTest.sameAsSetfiles(dir, List.of("-v"),
          List.of(options.split(" ")), policy, theirs, ours);
      assertEquals(List.of(AttrTrees.SETFILES + ": Directory cycle on " + theirs.resolve(names.get(1)) + "."), checked.errLines().stream().toList());
      assertEquals(255, checked.status());
      // find(1) stops at the cycle too: the tree's labels, read beside it.
      Path theirFirst = theirs.resolve(names.get(0));
      Path ourFirst = ours.resolve(names.get(0));
      assertEquals(AttrTrees.labels(theirFirst, dir), AttrTrees.labels(ourFirst, dir), options);
      assertEquals(AttrTrees.label(theirs, dir), AttrTrees.label(ours, dir), options);
      assertEquals(AttrTrees.label(theirFirst, dir), AttrTrees.label(ourFirst, dir), options);
      assertEquals("system_u:object_r:tree_t:s0", AttrTrees.label(ourFirst.resolve("f"), dir), options);
    }
  }

  /**
   * relabel goes on past a directory cycle (a failure is reported and the walk goes on), where
   * setfiles stops its whole walk: the entries met after it are labelled, by their own names.
   */
  @Test
  void labelsWhatLiesPastADirectoryCycle() throws Exception {
    List<String> names = Trees.listedInByteOrder(dir, 2);
    Path policy = Files.writeString(dir.resolve("file_contexts"),
        dir + "(/.*)?\tsystem_u:object_r:tree_t:s0\n"
        + dir + "/tree/" + names.get(0) + "(/.*)?\tsystem_u:object_r:cycle_t:s0\n");
    Path tree = cycled(dir, names.get(1), names.get(0));
    for (String threads : List.of("1", "2")) {
      AttrTrees.Run run = Trees.relabel(List.of("setfiles", "-A", "-F", "-T", threads, policy.toString(), tree.toString()));
      assertEquals(255, run.status(), run.toString());
      assertEquals(List.of("relabel: Directory cycle on " + tree.resolve(names.get(0)) + "."), run.errLines().stream().toList());
      assertEquals("system_u:object_r:tree_t:s0", AttrTrees.label(tree.resolve(names.get(1) + "/f"), dir));
      assertEquals("system_u:object_r:tree_t:s0", AttrTrees.label(tree, dir));
    }
  }

  /** {@code side/tree} with a file in directory {@code first}, and itself bound onto directory {@code cycle}. */
  private Path cycled(Path side, String first, String cycle) throws Exception {
    Path tree = Files.createDirectories(side.resolve("tree"));
    Files.createFile(Files.createDirectory(tree.resolve(first)).resolve("f"));
    Path target = Files.createDirectory(tree.resolve(cycle));
    mount(List.of("mount", "--bind", tree.toString(), target.toString()), target);
    return tree;
  }
}
