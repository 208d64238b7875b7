package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.policy.FileType;
import dev.relabel.policy.Origin;
import dev.relabel.policy.Spec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A directory's narrowing of the expressions its children may match ({@link
 * CompiledSpec#runsFound}, continued from its parent's, and {@link CompiledSpec#childProgress}),
 * and a child's lookup that searches only its name ({@link CompiledSpec#matchesChild}, after the
 * name's start, {@link CompiledSpec#childNameHead}): what each drops, and that none ever disagrees
 * with the expression.
 */
class ChildProgressTest {
  private static CompiledSpec spec(String regex) {
    return new CompiledSpec(0, new Spec(regex, FileType.ANY, "u:r:t:s0", Path.of("fc"), 1, Origin.BASE), null);
  }

  /** What a directory with the key childPrefix keeps of the spec, searched from scratch. */
  private static int progress(CompiledSpec spec, String childPrefix) {
    return spec.childProgress(childPrefix, spec.runsFound(childPrefix, CompiledSpec.NOT_SEARCHED, 0));
  }

  @Test
  void aClosingRunWithASlashNeedsTheDirectoryToEndWithItsHead() {
    CompiledSpec helper = spec("/usr/lib/[^/]+/xfce4/session/helper");
    assertEquals(CompiledSpec.NO_CHILD, progress(helper, "/usr/lib/x86_64-linux-gnu/"));
    int progress = progress(helper, "/usr/lib/x86_64-linux-gnu/xfce4/session/");
    assertNotEquals(CompiledSpec.NO_CHILD, progress);
    int nameStart = "/usr/lib/x86_64-linux-gnu/xfce4/session/".length();
    assertTrue(helper.matchesChild("/usr/lib/x86_64-linux-gnu/xfce4/session/helper", nameStart, progress));
    assertFalse(helper.matchesChild("/usr/lib/x86_64-linux-gnu/xfce4/session/helper2", nameStart, progress));
  }

  @Test
  void aRunFoundOnlyEarlierInTheDirectoryDoesNotCloseTheKey() {
    // "/s/t" is in the directory's key, but every key this spec matches ends with it.
    assertEquals(CompiledSpec.NO_CHILD, progress(spec("/a.*/s/t"), "/a/s/t/x/"));
    assertNotEquals(CompiledSpec.NO_CHILD, progress(spec("/a.*/s/t"), "/a/x/s/"));
  }

  @Test
  void runsDoNotShareTheDirectorysLastSlash() {
    // After "/gems/" takes the final '/', "/passenger-" has no '/' left to start with.
    CompiledSpec passenger = spec("/usr/.*/gems/.*/passenger-[^/]*");
    assertEquals(CompiledSpec.NO_CHILD, progress(passenger, "/usr/lib/ruby/gems/"));
    assertEquals(CompiledSpec.NO_CHILD, progress(passenger, "/usr/lib/ruby/"));
    assertNotEquals(CompiledSpec.NO_CHILD, progress(passenger, "/usr/lib/ruby/gems/1/"));
  }

  @Test
  void aRunWithASlashAfterOneInTheNameCannotFollowIt() {
    // "x" must lie in the name, and "/y" after it: a name holds no '/'.
    assertEquals(CompiledSpec.NO_CHILD, progress(spec("/a/.*x.*/y.*z"), "/a/"));
    assertNotEquals(CompiledSpec.NO_CHILD, progress(spec("/a/.*x.*/y.*z"), "/a/x/"));
  }

  @Test
  void aRunThatStraddlesTheLastSlashIsMatchedAtTheNamesStart() {
    CompiledSpec gems = spec("/usr/.*/gems/x[^/]*");
    String directory = "/usr/lib/gems/";
    int progress = progress(gems, directory);
    assertNotEquals(CompiledSpec.NO_CHILD, progress);
    assertTrue(gems.matchesChild(directory + "xyz", directory.length(), progress));
    assertFalse(gems.matchesChild(directory + "yxz", directory.length(), progress));
  }

  @Test
  void aSpecThatOneNameAloneCanMatchIsDecidedAtTheNamesStart() {
    String directory = "/usr/lib/x86_64-linux-gnu/";
    CompiledSpec sbin = spec("/usr/(.*/)?sbin(/.*)?");
    assertEquals("sbin", sbin.childNameHead(directory, progress(sbin, directory)));
    // Beneath a directory named sbin every child matches, whatever its name.
    assertEquals(null, sbin.childNameHead("/usr/sbin/x/", progress(sbin, "/usr/sbin/x/")));
    CompiledSpec mozilla = spec("/usr/lib/[^/]*/run-mozilla\\.sh");
    assertEquals("run-mozilla.sh", mozilla.childNameHead(directory, progress(mozilla, directory)));
    CompiledSpec so = spec("/usr/(local/)?.*\\.so(\\.[^/]*)*");
    assertEquals(null, so.childNameHead(directory, progress(so, directory)));
  }

  /**
   * Every spec, directory and name of a small alphabet: a dropped spec matches no child by its
   * expression, and a kept one answers as its expression does.
   */
  @Test
  void neitherTheNarrowingNorTheNameSearchDisagreesWithTheExpression() {
    List<String> regexes = List.of(
        "/a/[^/]+/b/c", "/a/.*b/c", "/a(/.*)?/b\\.c", "/a/.*/b/.*c", "/a/[^/]*b[^/]*/c", "/a/(.*/)?b(/.*)?",
        "/a/.*x.*/y.*z", "/a.*/b/c", "/a/.*/b/", "/a/[^/]*\\n", "/a/.*b\\nc", "/a/.*/\\.b", "/a/b.*/b.*c",
        "/a/([^/]+/)?c/b", "/a/.*//b", "/a/.*/b/c\\n?", "/a/(.*/)?bc", "/a/(.*/)?b.*", "/a/(.*/)?b\\.c(/.*)?",
        "/a/(.*/)?b/.*", "/a/(.*/)?b.+");
    String[] atoms = {"a", "b", "c", "x", "y", "z", ".", "\n", "bc", "b.c"};
    Random random = new Random(7);
    List<String> wrong = new ArrayList<>();
    int dropped = 0;
    int withHead = 0;
    for (String regex : regexes) {
      CompiledSpec spec = spec(regex);
      for (int d = 0; d < 300; d++) {
        // A directory entered from "/a/" one name at a time, each continuing its parent's search.
        StringBuilder directory = new StringBuilder("/a/");
        long runs = spec.runsFound(directory.toString(), CompiledSpec.NOT_SEARCHED, 0);
        for (int depth = random.nextInt(4); depth > 0; depth--) {
          int searchedTo = directory.length();
          directory.append(name(random, atoms)).append('/');
          runs = spec.runsFound(directory.toString(), runs, searchedTo);
        }
        long fromScratch = spec.runsFound(directory.toString(), CompiledSpec.NOT_SEARCHED, 0);
        if (runs != fromScratch) {
          wrong.add(regex + " under " + directory + ": continued " + Long.toHexString(runs) + ", from scratch "
              + Long.toHexString(fromScratch));
        }
        int progress = spec.childProgress(directory.toString(), runs);
        String head = progress == CompiledSpec.NO_CHILD ? null : spec.childNameHead(directory.toString(), progress);
        withHead += head == null ? 0 : 1;
        for (int n = 0; n < 20; n++) {
          String name = name(random, atoms);
          String key = directory + name;
          boolean expected = spec.matchesByExpression(key);
          if (progress == CompiledSpec.NO_CHILD) {
            dropped++;
            if (expected) {
              wrong.add(regex + " dropped under " + directory + " but matches " + key);
            }
          } else if (spec.matchesChild(key, directory.length(), progress) != expected) {
            wrong.add(regex + " on " + key + ": by name " + !expected + ", expression " + expected);
          } else if (expected && head != null && !name.startsWith(head)) {
            wrong.add(regex + " on " + key + ": its name does not start with " + head);
          }
        }
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
    // The narrowing must drop something and name heads, or this test shows nothing about them.
    assertNotEquals(0, dropped);
    assertNotEquals(0, withHead);
  }

  private static String name(Random random, String[] atoms) {
    StringBuilder name = new StringBuilder();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      name.append(atoms[random.nextInt(atoms.length)]);
    }
    return name.toString();
  }
}
