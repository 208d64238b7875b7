package dev.relabel.cli.setfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.cli.Trees;
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
 * One file under many names whose specs give several labels, against Debian's setfiles: the first
 * name met decides, and each later name whose label differs is reported against the name reported
 * before it, a chain ("n1 and n0", "n3 and n1", ...), not every name against the deciding one.
 * Five hard links in a directory that is also bound onto another name of the tree: ten names, of
 * four labels. relabel takes the names in byte order (at every -T), so they are picked where this
 * filesystem lists them in byte order: setfiles then meets them in that order too.
 */
class LinkConflictsCliTest {
  @TempDir Path dir;
  private final List<Path> mounts = new ArrayList<>();

  @BeforeEach
  void tools() {
    AttrTrees.requireTools(true);
  }

  @AfterEach
  void unmount() throws Exception {
    AttrTrees.unmountAll(mounts, dir);
  }

  @Test
  void reportsConflictsAsAChainAsSetfilesDoes() throws Exception {
    List<String> names = Trees.listedInByteOrder(dir, 5);
    String spec = dir + "/[^/]+/tree/[^/]+/";
    Path policy = Files.writeString(dir.resolve("file_contexts"),
        dir + "(/.*)?\tsystem_u:object_r:etc_t:s0\n"
        + spec + names.get(1) + "\tsystem_u:object_r:bin_t:s0\n"
        + spec + names.get(3) + "\tsystem_u:object_r:usr_t:s0\n"
        + spec + names.get(4) + "\tsystem_u:object_r:bin_t:s0\n"
        + dir + "/[^/]+/tree/" + names.get(1) + "/" + names.get(2) + "\tsystem_u:object_r:lib_t:s0\n");
    for (String threads : List.of("1", "2")) {
      for (boolean dryRun : List.of(true, false)) {
        String run = threads + dryRun;
        Path theirs = linked(Files.createDirectory(dir.resolve("theirs-" + run)), names);
        Path ours = linked(Files.createDirectory(dir.resolve("ours-" + run)), names);
        AttrTrees.Run checked = SetfilesCliDifferentialTest.sameAsSetfiles(dir,
            dryRun ? List.of("-n", "-v") : List.of("-v"), List.of("-T", threads), policy, theirs, ours);
        // Names 1, 3, 4 under the first directory, 1 to 4 under the second (2 is lib_t there).
        assertEquals(7, checked.errLines().stream().filter(l -> l.contains("conflicting specifications")).count(),
            checked::toString);
        assertEquals(AttrTrees.labels(theirs, dir), AttrTrees.labels(ours, dir));
      }
    }
  }

  /**
   * {@code side/tree}: in directory {@code names[0]} one file under the five names, and that
   * directory bound onto {@code names[1]}; every name made in byte order.
   */
  private Path linked(Path side, List<String> names) throws Exception {
    Path tree = Files.createDirectory(side.resolve("tree"));
    Path directory = Files.createDirectory(tree.resolve(names.get(0)));
    Path file = Files.createFile(directory.resolve(names.get(0)));
    for (String name : names.subList(1, names.size())) {
      Files.createLink(directory.resolve(name), file);
    }
    Path bound = Files.createDirectory(tree.resolve(names.get(1)));
    AttrTrees.mount(List.of("mount", "--bind", directory.toString(), bound.toString()), dir);
    mounts.add(bound);
    return tree;
  }
}
