package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Expressions of the form {@code HEAD} + any directories or none + {@code NAME} + a shape's tail
 * ({@code /usr/(.*}{@code /)?man/.*}), which the matcher decides by comparisons: against the
 * expression itself, on the keys that trip such a decision (NAME inside a component, NAME found
 * twice, a final newline, NAME holding a '/').
 */
class DirsThenNameTest {
  private static CompiledSpec spec(String regex) {
    return new CompiledSpec(0, new Spec(regex, FileType.ANY, "u:r:t:s0", Path.of("fc"), 1, Origin.BASE), null);
  }

  @Test
  void theNameMustStartAComponent() {
    CompiledSpec bin = spec("/usr/(.*/)?bin(/.*)?");
    assertTrue(bin.matches("/usr/bin"));
    assertTrue(bin.matches("/usr/local/bin/x"));
    assertTrue(bin.matches("/usr/sbin/bin"));
    assertFalse(bin.matches("/usr/sbin"));
    assertFalse(bin.matches("/usr/local/binx"));
  }

  @Test
  void aFinalNewlineEndsTheKeyAsTheDollarDoes() {
    CompiledSpec man = spec("/usr/(.*/)?man");
    assertTrue(man.matches("/usr/share/man\n"));
    assertFalse(man.matches("/usr/share/man\n\n"));
    assertFalse(man.matches("/usr/share/man/"));
  }

  /** Every key of a small alphabet: the comparisons answer as the expression does. */
  @Test
  void comparisonsAgreeWithTheExpression() {
    List<String> regexes = List.of("/a/(.*/)?b", "/a/(.*/)?b(/.*)?", "/a/(.*/)?b/.*", "/a/(.*/)?b.*", "/a/(.*/)?b.+",
        "/a/(.*/)?b/c", "/a(.*/)?b", "/a/(.*/)?\\.b");
    String[] atoms = {"a", "b", "c", "/", "/b", "b/", ".b", "\n", "bb"};
    Random random = new Random(11);
    List<String> wrong = new ArrayList<>();
    int matched = 0;
    for (String regex : regexes) {
      CompiledSpec spec = spec(regex);
      assertTrue(spec.shape() == CompiledSpec.Shape.EXPRESSION, regex);
      for (int k = 0; k < 3000; k++) {
        StringBuilder key = new StringBuilder("/a");
        for (int i = random.nextInt(6); i > 0; i--) {
          key.append(atoms[random.nextInt(atoms.length)]);
        }
        boolean expected = spec.matchesByExpression(key.toString());
        matched += expected ? 1 : 0;
        if (spec.matches(key.toString()) != expected) {
          wrong.add(regex + " on " + key.toString().replace("\n", "\\n") + ": expression " + expected);
        }
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
    assertTrue(matched > 1000, "too few matching keys to show anything: " + matched);
  }
}
