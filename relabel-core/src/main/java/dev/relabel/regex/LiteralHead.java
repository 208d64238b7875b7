package dev.relabel.regex;

import java.util.Set;

/**
 * A PCRE2 pattern read as a literal head and a tail: the head is the longest run of literal
 * characters from the start (a backslash before a non-alphanumeric character quotes it), the tail
 * is the rest, as written.
 *
 * <p>Most {@code file_contexts} lines are such a head followed by one of a few
 * {@link #COMMON_TAILS}. Those are decided by string comparisons, and they are valid PCRE2 by
 * construction, which spares the translation that used to be most of a policy's load.
 *
 * @param literal the head, unescaped
 * @param tail the rest of the pattern
 */
public record LiteralHead(String literal, String tail) {
  /** The tails, after a literal head, that most policy lines end with. */
  public static final Set<String> COMMON_TAILS = Set.of("", "(/.*)?", ".*", ".+", "/.*");

  /**
   * Longer patterns go through the translation, which knows PCRE2's size limit (64K code units of
   * compiled pattern; a literal byte takes at most 2, the anchors and a tail a few more).
   */
  private static final int MAX_LENGTH_VALID_BY_CONSTRUCTION = 4096;

  /**
   * The rules of a literal-head scan: which characters end the head, and which characters a
   * backslash quotes. The two callers differ on purpose, and each answer is checked against the
   * scan it replaced (LiteralHeadScanTest).
   */
  public enum Rules {
    /**
     * For deciding that a pattern is valid PCRE2 by construction, so conservative: every
     * metacharacter, closing brackets included, ends the head, and a backslash quotes only what
     * is not a letter or digit in Unicode's sense (PCRE2's own tables say ASCII).
     */
    PCRE(".^$?*+|[({)}]", false),
    /**
     * For the prefix every match starts with: libselinux's {@code spec_hasMetaChars} set (a
     * closing bracket alone is a literal to PCRE2), and a backslash quotes anything but an ASCII
     * letter or digit, as PCRE2 in non-UTF mode reads it.
     */
    LIBSELINUX(".^$?*+|[({", true);

    private final String meta;
    private final boolean asciiWordEscapes;

    Rules(String meta, boolean asciiWordEscapes) {
      this.meta = meta;
      this.asciiWordEscapes = asciiWordEscapes;
    }

    private boolean escapeQuotes(char next) {
      return asciiWordEscapes
          ? !((next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))
          : !Character.isLetterOrDigit(next);
    }
  }

  /**
   * The one scan of a pattern's literal head: appends the head, unescaped, to {@code literal},
   * and returns where it stops (the pattern's length when it is all literal).
   */
  public static int scan(String pattern, Rules rules, StringBuilder literal) {
    int i = 0;
    int n = pattern.length();
    while (i < n) {
      char c = pattern.charAt(i);
      if (rules.meta.indexOf(c) >= 0) {
        break;
      }
      if (c == '\\') {
        if (i + 1 >= n || !rules.escapeQuotes(pattern.charAt(i + 1))) {
          break;
        }
        literal.append(pattern.charAt(i + 1));
        i += 2;
        continue;
      }
      literal.append(c);
      i++;
    }
    return i;
  }

  /**
   * The head and tail of {@code pattern}; null when a quantifier follows the head (it would apply
   * to the head's last character).
   */
  public static LiteralHead of(String pattern) {
    StringBuilder literal = new StringBuilder();
    int i = scan(pattern, Rules.PCRE, literal);
    if (i < pattern.length() && "?*+{".indexOf(pattern.charAt(i)) >= 0) {
      return null;
    }
    return new LiteralHead(literal.toString(), pattern.substring(i));
  }

  /**
   * Whether PCRE2 certainly compiles {@code "^" + pattern + "$"} (as libselinux compiles a spec):
   * a literal head and a common tail, of a modest length. False says nothing: translate it.
   */
  static boolean validByConstruction(String pattern) {
    if (pattern.length() > MAX_LENGTH_VALID_BY_CONSTRUCTION) {
      return false;
    }
    LiteralHead head = of(pattern);
    return head != null && COMMON_TAILS.contains(head.tail());
  }
}
