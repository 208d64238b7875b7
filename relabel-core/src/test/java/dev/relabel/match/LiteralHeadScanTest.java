package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.policy.Spec;
import dev.relabel.regex.LiteralHead;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link LiteralHead#scan} is the one literal-head scanner; {@link LiteralHead#of} and
 * {@link SpecShape#literalPrefix} used to have a loop each, with rules that differ on purpose.
 * This keeps those two loops, as they were (d47cac2), as oracles, and asks both callers the same
 * questions: the shapes file_contexts uses, every regex of Debian's policy, and random patterns
 * over every character the two rule sets treat differently.
 */
class LiteralHeadScanTest {
  /** LiteralHead.of before the scanner was shared. */
  private static LiteralHead oldLiteralHead(String pattern) {
    String meta = ".^$?*+|[({)}]";
    StringBuilder literal = new StringBuilder();
    int i = 0;
    int n = pattern.length();
    while (i < n) {
      char c = pattern.charAt(i);
      if (meta.indexOf(c) >= 0) {
        break;
      }
      if (c == '\\') {
        if (i + 1 >= n || Character.isLetterOrDigit(pattern.charAt(i + 1))) {
          break;
        }
        literal.append(pattern.charAt(i + 1));
        i += 2;
        continue;
      }
      literal.append(c);
      i++;
    }
    if (i < n && "?*+{".indexOf(pattern.charAt(i)) >= 0) {
      return null;
    }
    return new LiteralHead(literal.toString(), pattern.substring(i));
  }

  /** SpecShape.literalPrefix before the scanner was shared. */
  private static String oldLiteralPrefix(String regex) {
    if (SpecShape.hasTopLevelAlternation(regex)) {
      return "";
    }
    String meta = ".^$?*+|[({";
    StringBuilder literal = new StringBuilder();
    int i = 0;
    int n = regex.length();
    while (i < n) {
      char c = regex.charAt(i);
      if (meta.indexOf(c) >= 0) {
        break;
      }
      if (c == '\\') {
        if (i + 1 >= n) {
          break;
        }
        char next = regex.charAt(i + 1);
        if ((next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')) {
          break;
        }
        literal.append(next);
        i += 2;
        continue;
      }
      literal.append(c);
      i++;
    }
    if (i < n && literal.length() > 0 && "?*{+".indexOf(regex.charAt(i)) >= 0) {
      literal.setLength(literal.length() - 1);
    }
    return literal.toString();
  }

  private static void assertSameAnswers(List<String> patterns) {
    for (String pattern : patterns) {
      assertEquals(oldLiteralHead(pattern), LiteralHead.of(pattern), () -> "LiteralHead.of(" + pattern + ")");
      assertEquals(oldLiteralPrefix(pattern), SpecShape.literalPrefix(pattern),
          () -> "SpecShape.literalPrefix(" + pattern + ")");
    }
  }

  @Test
  void shapesWhereTheRulesDiffer() {
    List<String> patterns = List.of("", "/usr/bin", "/usr(/.*)?", "/usr/.*", "/a\\.b", "/a\\d", "/a\\\u00e9x",
        "/a\\\u00ffx", "/a]b", "/a}b", "/a)b", "/a{2}", "/ab?", "/ab*", "/ab+c", "/a|/b", "(/a|/b)", "/a\\", "\\",
        "/caf\u00e9", "/x\\]y", "/x\\)y", "/x\\(y", "/x\\{y", "/x[ab]", "/x\\Qy\\E");
    assertSameAnswers(patterns);
    // The rules do differ on these, so the test would see a scanner that ignored them.
    assertEquals("/a", LiteralHead.of("/a]b").literal());
    assertEquals("/a]b", SpecShape.literalPrefix("/a]b"));
    assertEquals("/a", LiteralHead.of("/a\\\u00e9x").literal());
    assertEquals("/a\u00e9x", SpecShape.literalPrefix("/a\\\u00e9x"));
  }

  @Test
  void randomPatternsOverEveryCharacterThatMatters() {
    String alphabet = "/ab0._\\\\\\.^$?*+|[]{}()\u00e9\u00ff\n";
    Random random = new Random(15);
    List<String> patterns = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      StringBuilder pattern = new StringBuilder();
      int length = random.nextInt(12);
      for (int j = 0; j < length; j++) {
        pattern.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      patterns.add(pattern.toString());
    }
    assertSameAnswers(patterns);
  }

  @Test
  void everyRegexOfDebiansPolicy() throws Exception {
    if (!Files.isRegularFile(Oracles.DEBIAN_FILE_CONTEXTS)) {
      String missing = Oracles.DEBIAN_FILE_CONTEXTS + " is missing (apt-get install selinux-policy-default)";
      if (Oracles.inCi()) {
        fail(missing);
      }
      Assumptions.abort(missing);
    }
    List<String> regexes = PolicyLoader.lenient().load(Oracles.DEBIAN_FILE_CONTEXTS).specs().stream()
        .map(Spec::regex).toList();
    assertTrue(regexes.size() > 1_000, "too few specs: " + regexes.size());
    assertSameAnswers(regexes);
  }
}
