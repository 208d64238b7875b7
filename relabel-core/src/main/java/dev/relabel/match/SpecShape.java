package dev.relabel.match;

import dev.relabel.regex.LiteralHead;
import java.util.ArrayList;
import java.util.List;

/**
 * What can be read off a spec's expression without running it, by libselinux's own rules
 * ({@code label_file.h}) and by PCRE2's syntax.
 */
final class SpecShape {
  private static final String META = ".^$?*+|[({";

  private SpecShape() {}

  /**
   * libselinux's {@code spec_hasMetaChars}: specs without these characters (a backslash skips the
   * character after it) are "exact" and are tried before every expression.
   */
  static boolean hasMetaChars(String regex) {
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (META.indexOf(c) >= 0) {
        return true;
      }
      if (c == '\\') {
        i++;
      }
    }
    return false;
  }

  /**
   * libselinux's {@code get_stem_from_spec}: the text before the first '/' after position 0, when it
   * holds no meta character; null when the spec has no stem. A spec with a stem only applies to keys
   * whose own stem (the same cut of the key) is equal.
   */
  static String stem(String regex) {
    int slash = regex.indexOf('/', Math.min(1, regex.length()));
    if (slash < 0) {
      return null;
    }
    for (int i = 0; i < slash; i++) {
      if (META.indexOf(regex.charAt(i)) >= 0) {
        return null;
      }
    }
    return regex.substring(0, slash);
  }

  /** libselinux's {@code get_stem_from_file_name} for a key: null when it has no second '/'. */
  static String keyStem(String key) {
    int slash = key.indexOf('/', Math.min(1, key.length()));
    return slash < 0 ? null : key.substring(0, slash);
  }

  /** Whether the expression is a plain string that matches only itself (and itself plus "\n"). */
  static boolean isPlainLiteral(String regex) {
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (META.indexOf(c) >= 0 || c == '\\' || c == ')') {
        return false;
      }
    }
    return true;
  }

  /**
   * A string every key the spec matches must start with. It is the longest run of literal
   * characters at the start of the expression, less a last character a quantifier may remove, and
   * at least the stem and the '/' after it, which the stem rule demands of every key (when the two
   * disagree, as for a stem with a backslash, the stem and '/' win: nothing can match). An
   * alternation at the top level can match elsewhere, so it leaves only the stem.
   */
  static String requiredPrefix(String regex) {
    String stem = stem(regex);
    String fromStem = stem == null ? "" : stem + "/";
    // A stem holding a backslash ("/a\-b") never equals a key's stem ("/a-b"), so such a spec
    // never matches; its literal ("/a-b/..."), which does not start with the stem, must not stand
    // in for the stem rule. Keys must start with the stem and '/', which the expression then refuses.
    String text = literalPrefix(regex);
    return text.length() > fromStem.length() && text.startsWith(fromStem) ? text : fromStem;
  }

  /**
   * A string every string the expression matches starts with, whatever the stem rule says (a
   * partial match, which decides directory digests, compares no stem): the longest run of literal
   * characters at the start, less a last character a quantifier may remove; empty for an
   * alternation at the top level.
   */
  static String literalPrefix(String regex) {
    if (hasTopLevelAlternation(regex)) {
      return "";
    }
    StringBuilder literal = new StringBuilder();
    int i = LiteralHead.scan(regex, LiteralHead.Rules.LIBSELINUX, literal);
    int n = regex.length();
    if (i < n && literal.length() > 0 && "?*{+".indexOf(regex.charAt(i)) >= 0) {
      literal.setLength(literal.length() - 1);
    }
    return literal.toString();
  }

  /**
   * What a key must hold for the spec to match, read off the expression's top level (libselinux
   * wraps it as "^" + RE + "$", so without a top-level alternation every top-level literal run is
   * mandatory, in order).
   *
   * @param runs the mandatory literal runs, in the order they must appear, without overlapping
   * @param suffix the run that closes the expression: the key ends with it, or with it and the one
   *     "\n" that "$" also accepts; empty when the expression does not end with a literal
   */
  record Literals(List<String> runs, String suffix) {
    static final Literals NONE = new Literals(List.of(), "");
  }

  /**
   * The mandatory literals of an expression; {@link Literals#NONE} when it is beyond this simple
   * reading (top-level alternation, option settings, quoting, escapes other than character types).
   */
  static Literals requiredLiterals(String regex) {
    if (hasTopLevelAlternation(regex) || regex.contains("(?") || regex.contains("\\Q")) {
      return Literals.NONE;
    }
    List<String> runs = new ArrayList<>();
    StringBuilder run = new StringBuilder();
    int n = regex.length();
    int i = 0;
    while (i < n) {
      char c = regex.charAt(i);
      if (c == '\\') {
        if (i + 1 >= n) {
          return Literals.NONE;
        }
        char next = regex.charAt(i + 1);
        if ("dDsSwWhHvV".indexOf(next) >= 0) {
          endRun(run, runs);
        } else if ((next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')) {
          return Literals.NONE;
        } else {
          run.append(next);
        }
        i += 2;
      } else if (c == '[') {
        endRun(run, runs);
        i = endOfClass(regex, i) + 1;
      } else if (c == '(') {
        endRun(run, runs);
        i = endOfGroup(regex, i) + 1;
      } else if (c == '.' || c == '^' || c == '$') {
        endRun(run, runs);
        i++;
      } else if (c == '*' || c == '+' || c == '?' || (c == '{' && isQuantifier(regex, i))) {
        // The quantified atom may repeat or vanish: it leaves the run, and ends it.
        if (run.length() > 0) {
          run.setLength(run.length() - 1);
        }
        endRun(run, runs);
        i = c == '{' ? regex.indexOf('}', i) + 1 : i + 1;
        if (i < n && (regex.charAt(i) == '?' || regex.charAt(i) == '+')) {
          i++;
        }
      } else {
        run.append(c);
        i++;
      }
    }
    String suffix = run.toString();
    endRun(run, runs);
    return new Literals(List.copyOf(runs), suffix);
  }

  private static void endRun(StringBuilder run, List<String> runs) {
    if (run.length() > 0) {
      runs.add(run.toString());
      run.setLength(0);
    }
  }

  private static boolean isQuantifier(String regex, int open) {
    int i = open + 1;
    int n = regex.length();
    int digits = i;
    while (i < n && Character.isDigit(regex.charAt(i))) {
      i++;
    }
    if (i == digits || i >= n) {
      return false;
    }
    if (regex.charAt(i) == ',') {
      i++;
      while (i < n && Character.isDigit(regex.charAt(i))) {
        i++;
      }
    }
    return i < n && regex.charAt(i) == '}';
  }

  /** The index of the ')' closing the group opened at {@code open}, or the end. */
  private static int endOfGroup(String regex, int open) {
    int depth = 0;
    int n = regex.length();
    for (int i = open; i < n; i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '[') {
        i = endOfClass(regex, i);
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return n;
  }

  /** Whether a '|' stands outside every group and class (libselinux anchors with "^" + RE + "$"). */
  static boolean hasTopLevelAlternation(String regex) {
    int depth = 0;
    int n = regex.length();
    for (int i = 0; i < n; i++) {
      char c = regex.charAt(i);
      switch (c) {
        case '\\' -> {
          if (i + 1 < n && regex.charAt(i + 1) == 'Q') {
            int end = regex.indexOf("\\E", i + 2);
            i = end < 0 ? n : end + 1;
          } else {
            i++;
          }
        }
        case '(' -> depth++;
        case ')' -> depth = Math.max(0, depth - 1);
        case '|' -> {
          if (depth == 0) {
            return true;
          }
        }
        case '[' -> i = endOfClass(regex, i);
        default -> {}
      }
    }
    return false;
  }

  /** The index of the ']' closing the class opened at {@code open} (PCRE2 rules), or the end. */
  private static int endOfClass(String regex, int open) {
    int n = regex.length();
    int i = open + 1;
    if (i < n && regex.charAt(i) == '^') {
      i++;
    }
    if (i < n && regex.charAt(i) == ']') {
      i++;
    }
    for (; i < n; i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '[' && i + 1 < n && regex.charAt(i + 1) == ':') {
        int end = regex.indexOf(":]", i + 2);
        if (end >= 0) {
          i = end + 1;
        }
      } else if (c == ']') {
        return i;
      }
    }
    return n;
  }
}
