package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.policy.FileType;
import dev.relabel.policy.Origin;
import dev.relabel.policy.Policy;
import dev.relabel.policy.Spec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A spec that matches every key beneath a directory ({@link CompiledSpec.Extensions#EVERY}):
 * never claimed where the expression would fail on some extension, and the directory then drops
 * the specs ranked after it, which no lookup beneath could reach.
 */
class SettledSpecTest {
  private static Spec spec(String regex, FileType type, String context, int line) {
    return new Spec(regex, type, context, Path.of("fc"), line, Origin.BASE);
  }

  private static CompiledSpec compiled(String regex, FileType type) {
    return new CompiledSpec(0, spec(regex, type, "u:r:t:s0", 1), null);
  }

  /** Random directory keys and names: whenever a spec says it matches every extension, the expression agrees on each. */
  @Test
  void aSettledSpecMatchesEveryExtensionByItsExpression() {
    List<String> regexes = List.of("/a", "/a(/.*)?", "/a.*", "/a.+", "/a/.*", "/a/b(/.*)?", "/ab(/.*)?", "/a[0-9](/.*)?",
        "/a/(.*/)?b(/.*)?");
    String[] atoms = {"a", "b", "/", "\n", "ab", "0"};
    String[] names = {"a", "b", "\n", "x\n", ".", "ab", "a\nb"};
    Random random = new Random(7);
    List<String> wrong = new ArrayList<>();
    int settled = 0;
    int unsettled = 0;
    for (String regex : regexes) {
      CompiledSpec spec = compiled(regex, FileType.ANY);
      for (int k = 0; k < 2000; k++) {
        StringBuilder prefix = new StringBuilder("/a");
        for (int i = random.nextInt(5); i > 0; i--) {
          prefix.append(atoms[random.nextInt(atoms.length)]);
        }
        String keyPrefix = prefix.append('/').toString().replace("//", "/");
        if (spec.extensionsOf(keyPrefix) != CompiledSpec.Extensions.EVERY) {
          unsettled++;
          continue;
        }
        settled++;
        for (String name : names) {
          if (!spec.matchesByExpression(keyPrefix + name)) {
            wrong.add(regex + " settled at " + keyPrefix.replace("\n", "\\n") + " but fails " + name.replace("\n", "\\n"));
          }
        }
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
    assertTrue(settled > 1000 && unsettled > 1000, "settled " + settled + ", unsettled " + unsettled);
  }

  @Test
  void aTypedSpecOrAnExactOneNeverSettles() {
    assertEquals(CompiledSpec.Extensions.EVERY, compiled("/a(/.*)?", FileType.ANY).extensionsOf("/a/b/"));
    assertEquals(CompiledSpec.Extensions.SOME, compiled("/a(/.*)?", FileType.DIRECTORY).extensionsOf("/a/b/"));
    assertEquals(CompiledSpec.Extensions.SOME, compiled("/a/b", FileType.ANY).extensionsOf("/a/"));
    // HEAD(/.*)? at its head alone: the name continues the head's last component.
    assertEquals(CompiledSpec.Extensions.SOME, compiled("/a/b(/.*)?", FileType.ANY).extensionsOf("/a/b"));
    assertEquals(CompiledSpec.Extensions.NONE, compiled("/a/b(/.*)?", FileType.ANY).extensionsOf("/a/bc/"));
  }

  /**
   * libselinux's order puts later lines first: /usr(/.*)? (line 2) is tried before /.* (line 1),
   * so beneath /usr the latter is dropped; a typed spec of a later line stays ahead of it.
   */
  @Test
  void specsAfterASettledOneAreDroppedAndLookupsStillAgree() {
    LabelMatcher matcher = LabelMatcher.compile(new Policy(Path.of("fc"), List.of(
        spec("/.*", FileType.ANY, "u:r:default_t:s0", 1),
        spec("/usr(/.*)?", FileType.ANY, "u:r:usr_t:s0", 2),
        spec("/usr/.*\\.so", FileType.REGULAR_FILE, "u:r:lib_t:s0", 3),
        spec("/srv(/.*)?", FileType.DIRECTORY, "u:r:srv_t:s0", 4)), List.of(), List.of()));
    DirectoryMatch usr = matcher.directory("/usr").enter("lib");
    assertEquals(2, usr.candidateCount(), usr.toString());
    DirectoryMatch srv = matcher.directory("/srv").enter("www");
    assertEquals(2, srv.candidateCount(), srv.toString());
    for (DirectoryMatch directory : List.of(usr, usr.enter("deep"), srv, srv.enter("deep"))) {
      for (String name : List.of("x.so", "x", "y.so\n")) {
        for (FileType type : List.of(FileType.REGULAR_FILE, FileType.DIRECTORY, FileType.SYMLINK, FileType.ANY)) {
          String path = directory.key() + "/" + name;
          assertEquals(matcher.lookup(path, type), directory.lookup(name, type), path + " " + type);
        }
      }
    }
    assertEquals("u:r:lib_t:s0", usr.lookup("x.so", FileType.REGULAR_FILE).display());
    assertEquals("u:r:usr_t:s0", usr.lookup("x.so", FileType.DIRECTORY).display());
    assertEquals("u:r:default_t:s0", srv.lookup("x", FileType.REGULAR_FILE).display());
  }
}
