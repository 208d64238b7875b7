package dev.relabel.regex;

/**
 * Why a callout ({@code (?C...)}), a recursion ({@code (?R)}, {@code (?0)}) or a subroutine call
 * ({@code (?1)}, {@code (?-1)}, {@code (?&name)}, {@code (?P>name)}) is refused. relabel runs none
 * of them; what PCRE2 10.42 rejects from the item alone gets PCRE2's words, the rest is "not
 * supported by relabel", with a stand-in that names the called group: whether it exists is
 * known once {@link PcreReadOn} has read the whole pattern. The rules were read off libpcre2-8
 * 10.42 item by item (PcreDifferentialTest holds them against it).
 */
final class PcreCalls {
  private static final String CALLS = "a recursion or subroutine call";
  /** Callout string delimiters: each closes itself, but '{', closed by '}'. */
  private static final String DELIMITERS = "`'\"^%#${";

  private PcreCalls() {}

  /** The refusal of the callout {@code (?C} at {@code in.pos}. */
  static PcreSyntaxException callout(PcreLexer in) {
    String p = in.pattern;
    int at = in.pos + 3;
    if (at >= p.length()) {
      return in.error("missing closing parenthesis");
    }
    char c = p.charAt(at);
    if (PcreLexer.isDigit(c)) {
      int number = 0;
      while (at < p.length() && PcreLexer.isDigit(p.charAt(at))) {
        number = number * 10 + (p.charAt(at++) - '0');
        if (number > 255) {
          return in.error("number after (?C is greater than 255");
        }
      }
    } else if (DELIMITERS.indexOf(c) >= 0) {
      char close = c == '{' ? '}' : c;
      at++;
      while (true) {
        int end = p.indexOf(close, at);
        if (end < 0) {
          return in.error("missing terminating delimiter for callout with string argument");
        }
        at = end + 1;
        if (at >= p.length() || p.charAt(at) != close) {
          break; // a doubled delimiter is one of it, in the string
        }
        at++;
      }
    } else if (c != ')') {
      return in.error("unrecognized string delimiter follows (?C");
    }
    if (at >= p.length() || p.charAt(at) != ')') {
      return in.error("closing parenthesis for (?C expected");
    }
    return in.unsupported("a callout", in.pos, at + 1, "(?)", null); // PCRE2 repeats no callout
  }

  /** The refusal of the recursion {@code (?R} at {@code in.pos}. */
  static PcreSyntaxException recursion(PcreLexer in) {
    int at = in.pos + 3;
    return at < in.pattern.length() && in.pattern.charAt(at) == ')'
        ? in.unsupported(CALLS, in.pos, at + 1, "(?:)", null)
        : in.error("(?R (recursive pattern call) must be followed by a closing parenthesis");
  }

  /**
   * The refusal of a call by number, {@code (?N)}, {@code (?+N)} or {@code (?-N)}, at
   * {@code in.pos}, after {@code groupsBefore} capturing groups have opened.
   */
  static PcreSyntaxException numbered(PcreLexer in, int groupsBefore) {
    String p = in.pattern;
    int at = in.pos + 2;
    boolean relative = p.charAt(at) == '+' || p.charAt(at) == '-';
    if (relative) {
      at++;
    }
    boolean zero = true;
    int digits = at;
    while (at < p.length() && PcreLexer.isDigit(p.charAt(at))) {
      zero &= p.charAt(at++) == '0';
    }
    if (relative && zero) {
      return in.error("a relative value of zero is not allowed");
    }
    if (at >= p.length() || p.charAt(at) != ')' || at - digits > 9) {
      return in.unsupported(CALLS);
    }
    int number = Integer.parseInt(p.substring(digits, at));
    int group = !relative ? number : p.charAt(in.pos + 2) == '+' ? groupsBefore + number : groupsBefore - number + 1;
    // (?0) calls the whole pattern; a relative call to group 0 or below names none
    return in.unsupported(CALLS, in.pos, at + 1, "(?:)", !relative && number == 0 ? null : group);
  }

  /**
   * The refusal of a call by name whose name starts at {@code nameStart}: {@code (?&name)},
   * {@code (?P>name)}; a malformed name is the error a group's name gets ({@link PcreLexer#groupName}).
   */
  static PcreSyntaxException named(PcreLexer in, int nameStart) throws PcreSyntaxException {
    int item = in.pos;
    in.pos = nameStart;
    String name = in.groupName(')');
    int end = in.pos;
    in.pos = item;
    return in.unsupported(CALLS, item, end, "(?:)", name);
  }
}
