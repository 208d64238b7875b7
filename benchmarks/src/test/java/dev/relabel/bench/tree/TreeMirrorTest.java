package dev.relabel.bench.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeMirrorTest {
  @Test
  void copiesStructureAtItsOwnPathWithEmptyFilesAndUnfollowedSymlinks(@TempDir Path dir) throws Exception {
    Path source = Files.createDirectories(dir.resolve("src/etc/app.d"));
    Files.writeString(source.resolve("app.conf"), "contents that must not be copied");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "x");
    Files.createSymbolicLink(source.resolve("link"), outside);
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Path scratch = Files.createDirectory(dir.resolve("scratch"));

    TreeMirror.copy(List.of(source), tree, scratch);

    Path copy = tree.resolve(source.toString().substring(1));
    assertTrue(Files.isDirectory(copy, LinkOption.NOFOLLOW_LINKS), "at its own absolute path under the tree");
    assertEquals(0, Files.size(copy.resolve("app.conf")), "regular files become empty files");
    assertTrue(Files.isSymbolicLink(copy.resolve("link")));
    assertEquals(outside, Files.readSymbolicLink(copy.resolve("link")), "the link itself, not followed");
    assertFalse(Files.exists(tree.resolve(outside.toString().substring(1))), "the link's target is not copied");
    assertEquals(3 + source.getNameCount(), TreeLabels.count(tree), "tree, the parents, app.d, app.conf, link");
  }
}
