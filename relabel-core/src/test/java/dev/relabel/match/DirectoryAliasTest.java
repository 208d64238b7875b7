package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.relabel.policy.FileType;
import dev.relabel.policy.Origin;
import dev.relabel.policy.PathAlias;
import dev.relabel.policy.Policy;
import dev.relabel.policy.Spec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A directory whose name ends an alias's source: where the alias applies its state is built anew
 * from the aliased key, elsewhere (the same name under another parent) continued from its
 * parent's; either way its entries get what a lookup of their whole path gets.
 */
class DirectoryAliasTest {
  private static Spec spec(String regex, String type, int line) {
    return new Spec(regex, FileType.ANY, "u:r:" + type + ":s0", Path.of("fc"), line, Origin.BASE);
  }

  @Test
  void entriesBeneathANameThatMayAliasGetTheirWholePathsLabels() {
    LabelMatcher matcher = LabelMatcher.compile(new Policy(Path.of("fc"), List.of(
        spec("/.*", "default_t", 1),
        spec("/usr/lib(/.*)?", "lib_t", 2),
        spec("/srv(/.*)?", "srv_t", 3),
        spec("/opt/(.*/)?lib64(/.*)?", "opt_lib_t", 4),
        spec("/var/lock(/.*)?", "lock_t", 5)),
        List.of(new PathAlias("/srv/lib64", "/usr/lib")), List.of(new PathAlias("/run/lock", "/var/lock"))));
    List<String> directories = List.of("/srv/lib64", "/opt/lib64", "/opt/a/lib64/lib64", "/run/lock", "/srv/run/lock",
        "/opt/lib64/lock");
    for (String directory : directories) {
      DirectoryMatch state = matcher.directory("/");
      String[] names = directory.substring(1).split("/");
      for (String name : names) {
        state = state.enter(name);
      }
      assertEquals(matcher.normalizer().key(directory), state.key(), directory);
      for (String name : List.of("x", "lib64", "lock")) {
        for (FileType type : List.of(FileType.REGULAR_FILE, FileType.DIRECTORY)) {
          assertEquals(matcher.lookup(directory + "/" + name, type), state.lookup(name, type), directory + "/" + name);
          assertEquals(matcher.lookup(directory + "/" + name + "/y", type), state.enter(name).lookup("y", type),
              directory + "/" + name + "/y");
        }
      }
    }
    assertEquals("u:r:lib_t:s0", matcher.directory("/srv").enter("lib64").lookup("x", FileType.REGULAR_FILE).display());
    assertEquals("u:r:opt_lib_t:s0", matcher.directory("/opt").enter("lib64").lookup("x", FileType.REGULAR_FILE).display());
  }
}
