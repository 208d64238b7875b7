package dev.relabel.regex;

import java.util.Set;

/**
 * Why an item that opens with {@code (*} is refused. relabel runs none of them (backtracking
 * verbs, start-of-pattern options, alphabetic assertions), but PCRE2 10.42 rejects many such
 * items outright, and an admin should be told which: a valid one is "not supported by relabel", a
 * malformed one gets PCRE2's own error. The rules below were read off libpcre2-8 10.42 item by
 * item (PcreDifferentialTest holds them against it).
 */
final class PcreVerbs {
  /** Backtracking control verbs, each with an optional {@code :NAME} (MARK's is required). */
  private static final Set<String> VERBS = Set.of("ACCEPT", "F", "FAIL", "COMMIT", "PRUNE", "SKIP", "THEN", "MARK");
  /** Options a pattern may start with. */
  private static final Set<String> START_OPTIONS = Set.of("UTF", "UTF8", "UCP", "NOTEMPTY", "NOTEMPTY_ATSTART",
      "NO_AUTO_POSSESS", "NO_DOTSTAR_ANCHOR", "NO_JIT", "NO_START_OPT", "CR", "LF", "CRLF", "ANY", "ANYCRLF", "NUL",
      "BSR_ANYCRLF", "BSR_UNICODE");
  /** Start options with a number: {@code (*LIMIT_MATCH=10)}. */
  private static final Set<String> LIMITS = Set.of("LIMIT_HEAP", "LIMIT_MATCH", "LIMIT_DEPTH", "LIMIT_RECURSION");
  /** Alphabetic assertions, written {@code (*name:...)}. */
  private static final Set<String> ASSERTIONS = Set.of("pla", "plb", "nla", "nlb", "napla", "naplb", "sr", "asr",
      "atomic", "positive_lookahead", "positive_lookbehind", "negative_lookahead", "negative_lookbehind",
      "non_atomic_positive_lookahead", "non_atomic_positive_lookbehind", "script_run", "atomic_script_run");
  private static final String UNSUPPORTED = "a (*VERB), (*OPTION) or (*alpha_assertion:...) item";

  private PcreVerbs() {}

  /** The refusal of the {@code (*} item at {@code in.pos}. */
  static PcreSyntaxException refusal(PcreLexer in) {
    String p = in.pattern;
    int start = in.pos + 2;
    if (start >= p.length() || p.charAt(start) == ')') {
      return in.error("quantifier does not follow a repeatable item"); // "(*" and "(*)": a '*' after '('
    }
    int options = startOptionsEnd(p);
    if (options > in.pos) {
      return in.unsupported(UNSUPPORTED, in.pos, options, "(?)", null);
    }
    int end = start;
    while (end < p.length() && PcreLexer.isWordByte(p.charAt(end))) {
      end++;
    }
    String name = p.substring(start, end);
    char after = end < p.length() ? p.charAt(end) : 0;
    char first = p.charAt(start);
    if (first >= 'a' && first <= 'z') {
      return ASSERTIONS.contains(name) && after == ':'
          ? in.unsupported(UNSUPPORTED, in.pos, end + 1, assertionStandIn(name), null)
          : in.error("(*alpha_assertion) not recognized");
    }
    boolean mark = name.equals("MARK") || name.isEmpty() && after == ':';
    if (!VERBS.contains(name) && !mark) {
      return in.error("(*VERB) not recognized or malformed");
    }
    if (after == ':') {
      int close = p.indexOf(')', end);
      if (close < 0) {
        return in.error("(*VERB) not recognized or malformed");
      }
      if (close == end + 1 && mark) {
        return in.error("(*MARK) must have an argument");
      }
      return in.unsupported(UNSUPPORTED, in.pos, close + 1, "(?:)", null);
    }
    if (after != ')') {
      return in.error("(*VERB) not recognized or malformed");
    }
    return mark ? in.error("(*MARK) must have an argument")
        : in.unsupported(UNSUPPORTED, in.pos, end + 1, "(?:)", null);
  }

  /** The group an alphabetic assertion's opener {@code (*name:} stands for, to read what it holds. */
  private static String assertionStandIn(String name) {
    return switch (name) {
      case "pla", "napla", "positive_lookahead", "non_atomic_positive_lookahead" -> "(?=";
      case "nla", "negative_lookahead" -> "(?!";
      case "plb", "naplb", "positive_lookbehind", "non_atomic_positive_lookbehind" -> "(?<=";
      case "nlb", "negative_lookbehind" -> "(?<!";
      case "atomic", "atomic_script_run", "asr" -> "(?>";
      default -> "(?:"; // a script run
    };
  }

  /** Where the start-of-pattern options that open {@code p} end (0 when there are none). */
  private static int startOptionsEnd(String p) {
    int at = 0;
    while (p.startsWith("(*", at)) {
      int close = p.indexOf(')', at);
      if (close < 0) {
        return at;
      }
      String item = p.substring(at + 2, close);
      int equals = item.indexOf('=');
      boolean option = equals < 0 ? START_OPTIONS.contains(item)
          : LIMITS.contains(item.substring(0, equals)) && isLimit(item.substring(equals + 1));
      if (!option) {
        return at;
      }
      at = close + 1;
    }
    return at;
  }

  /** A limit's value: decimal digits, each read only while the value so far is below 2^32 / 10 - 1 (PCRE2's check). */
  private static boolean isLimit(String digits) {
    if (digits.isEmpty()) {
      return false;
    }
    long value = 0;
    for (char c : digits.toCharArray()) {
      if (c < '0' || c > '9' || value > 0xFFFF_FFFFL / 10 - 1) {
        return false;
      }
      value = value * 10 + (c - '0');
    }
    return true;
  }
}
