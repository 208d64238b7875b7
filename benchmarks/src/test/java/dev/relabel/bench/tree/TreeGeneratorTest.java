package dev.relabel.bench.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeGeneratorTest {
  @Test
  void sameSeedSameTreeOnDisk(@TempDir Path dir) throws IOException {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    assertEquals(2000, TreeGenerator.generate(a, 2000, 42));
    assertEquals(2000, TreeGenerator.generate(b, 2000, 42));
    List<String> listing = listing(a);
    assertEquals(2000, listing.size(), "every planned entry is on disk, nothing else");
    assertEquals(listing, listing(b));
  }

  @Test
  void anotherSeedAnotherTree() {
    assertNotEquals(TreeGenerator.plan(5000, 1), TreeGenerator.plan(5000, 2));
    assertEquals(TreeGenerator.plan(5000, 1), TreeGenerator.plan(5000, 1));
  }

  @Test
  void exactSizeParentsFirstUniquePaths() {
    for (int size : new int[] {1, 7, 19, 100, 3000, 20000}) {
      List<TreeGenerator.Node> plan = TreeGenerator.plan(size, 7);
      assertEquals(size, plan.size(), "size " + size);
      Set<String> seenDirectories = new HashSet<>();
      Set<String> seen = new HashSet<>();
      for (TreeGenerator.Node node : plan) {
        assertTrue(seen.add(node.path()), "unique: " + node.path());
        int slash = node.path().lastIndexOf('/');
        if (slash > 0) {
          assertTrue(seenDirectories.contains(node.path().substring(0, slash)), "parent first: " + node.path());
        }
        if (node.kind() == TreeGenerator.Node.Kind.DIRECTORY) {
          seenDirectories.add(node.path());
        }
      }
    }
  }

  @Test
  void shapedLikeADistribution() {
    List<TreeGenerator.Node> plan = TreeGenerator.plan(20000, 1);
    for (String prefix : List.of("usr/bin/", "usr/lib/x86_64-linux-gnu/", "usr/lib/python3/dist-packages/",
        "usr/share/doc/", "usr/share/man/man1/", "etc/", "var/lib/", "var/log/", "home/alice/", "srv/", "opt/",
        "var/www/")) {
      long n = plan.stream().filter(node -> node.path().startsWith(prefix)).count();
      assertTrue(n >= 20, prefix + " has " + n + " entries");
    }
    assertTrue(plan.stream().anyMatch(n -> n.path().matches("usr/lib/x86_64-linux-gnu/lib.*\\.so\\.[0-9]+")
        && n.kind() == TreeGenerator.Node.Kind.SYMLINK), "shared-library symlinks");
    assertTrue(plan.stream().anyMatch(n -> n.path().matches("usr/share/man/man[1-8]/.*\\.[1-8]\\.gz")), "man pages");
    int deepest = plan.stream().mapToInt(n -> n.path().split("/").length).max().orElseThrow();
    assertTrue(deepest >= 7, "deep enough: " + deepest);
  }

  /** Each entry as "path type [target]", sorted: what find -printf '%P %y %l' would list. */
  private static List<String> listing(Path root) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (p.equals(root)) {
          continue;
        }
        String type = Files.isSymbolicLink(p) ? "l " + Files.readSymbolicLink(p)
            : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "d" : Files.size(p) == 0 ? "f" : "f?";
        lines.add(root.relativize(p) + " " + type);
      }
    }
    lines.sort(null);
    return lines;
  }
}
