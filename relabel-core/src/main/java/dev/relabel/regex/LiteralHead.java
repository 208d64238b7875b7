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

  private static final String META = ".^$?*+|[({)}]";

  /**
   * The head and tail of {@code pattern}; null when a quantifier follows the head (it would apply
   * to the head's last character).
   */
  public static LiteralHead of(String pattern) {
    StringBuilder literal = new StringBuilder();
    int i = 0;
    int n = pattern.length();
    while (i < n) {
      char c = pattern.charAt(i);
      if (META.indexOf(c) >= 0) {
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
