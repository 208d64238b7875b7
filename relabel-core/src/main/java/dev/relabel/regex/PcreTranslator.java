package dev.relabel.regex;

import java.util.HashMap;
import java.util.Map;

/**
 * Rewrites a PCRE2 pattern (8-bit, non-UTF, as libselinux compiles it) into a java.util.regex
 * pattern that matches the same byte strings, each byte held as one char 0..255.
 *
 * <p>Where the two dialects read the same text differently, the output spells the PCRE2 meaning
 * out explicitly:
 *
 * <ul>
 *   <li>A {@code {} that does not start a valid quantifier is a literal in PCRE2 and an error in
 *       Java.
 *   <li>Inside a class, {@code [} and {@code &&} are literals in PCRE2 but nest and intersect in
 *       Java; a {@code ]} first in a class is a literal in PCRE2. Every literal in a class is
 *       therefore written as {@code \x{HH}}.
 *   <li>POSIX classes ({@code [:alpha:]}) do not exist in Java; they become {@code \p{Alpha}}.
 *   <li>{@code \b} and {@code \B} use Unicode letters in Java 17 and ASCII in PCRE2.
 *   <li>Octal and hex escapes ({@code \0}, {@code \012}, {@code \x9}, {@code \o{..}}), control
 *       escapes and {@code \Q..\E} follow PCRE2's rules, backreferences its numbering.
 *   <li>{@code \N} is "not a newline" in PCRE2; {@code \C} is one byte.
 * </ul>
 *
 * <p>What PCRE2 accepts and Java cannot express (recursion, conditionals, branch reset, verbs,
 * callouts, {@code \K}, the {@code x}, {@code n}, {@code J} and {@code U} options) is refused with
 * a {@link PcreSyntaxException} rather than approximated.
 */
final class PcreTranslator {
  private final String pattern;
  private final StringBuilder out;
  private final Map<String, String> groupNames = new HashMap<>();
  private int pos;
  private int capturingGroups;
  private int depth;
  /** Whether the last thing emitted can take a quantifier (PCRE2 refuses a dangling one). */
  private boolean repeatable;

  private PcreTranslator(String pattern) {
    this.pattern = pattern;
    this.out = new StringBuilder(pattern.length() + 16);
  }

  /** Translates a whole PCRE2 pattern; see the class comment. */
  static String translate(String pattern) throws PcreSyntaxException {
    PcreTranslator translator = new PcreTranslator(pattern);
    translator.countGroups();
    translator.run();
    return translator.out.toString();
  }

  private int totalGroups;

  /** PCRE2 decides between backreference and octal by the number of groups in the whole pattern. */
  private void countGroups() {
    int count = 0;
    boolean inClass = false;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        i++;
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
        }
      } else if (c == '[') {
        inClass = true;
        if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '^') {
          i++;
        }
        if (i + 1 < pattern.length() && pattern.charAt(i + 1) == ']') {
          i++;
        }
      } else if (c == '(') {
        boolean question = i + 1 < pattern.length() && pattern.charAt(i + 1) == '?';
        if (!question && !(i + 1 < pattern.length() && pattern.charAt(i + 1) == '*')) {
          count++;
        } else if (question && i + 2 < pattern.length()) {
          char k = pattern.charAt(i + 2);
          if ((k == '<' && i + 3 < pattern.length() && pattern.charAt(i + 3) != '=' && pattern.charAt(i + 3) != '!')
              || k == '\'' || (k == 'P' && i + 3 < pattern.length() && pattern.charAt(i + 3) == '<')) {
            count++;
          }
        }
      }
    }
    totalGroups = count;
  }

  private void run() throws PcreSyntaxException {
    int n = pattern.length();
    while (pos < n) {
      char c = pattern.charAt(pos);
      switch (c) {
        case '\\' -> escape();
        case '[' -> characterClass();
        case '(' -> groupOpen();
        case ')' -> {
          if (depth == 0) {
            throw error("unmatched closing parenthesis");
          }
          depth--;
          out.append(')');
          pos++;
          repeatable = true;
        }
        case '{' -> brace();
        case '*', '+', '?' -> {
          if (!repeatable) {
            throw error("quantifier does not follow a repeatable item");
          }
          out.append(c);
          pos++;
          // A lazy or possessive suffix belongs to this quantifier.
          if (pos < n && (pattern.charAt(pos) == '?' || pattern.charAt(pos) == '+')) {
            out.append(pattern.charAt(pos));
            pos++;
          }
          repeatable = false;
        }
        case '|' -> {
          out.append('|');
          pos++;
          repeatable = false;
        }
        case '^', '$' -> {
          out.append(c);
          pos++;
          repeatable = true;
        }
        case '.' -> {
          out.append('.');
          pos++;
          repeatable = true;
        }
        default -> {
          literal(c);
          pos++;
        }
      }
    }
    if (depth > 0) {
      throw error("missing closing parenthesis");
    }
  }

  private void literal(int c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '_'
        || c == '-' || c == ',' || c == ':' || c == '@' || c == '%' || c == '=' || c == '~') {
      out.append((char) c);
    } else {
      hex(c);
    }
    repeatable = true;
  }

  private void hex(int c) {
    out.append("\\x{").append(Integer.toHexString(c)).append('}');
  }

  /** A '{': a quantifier when it reads {n}, {n,} or {n,m}; otherwise a literal in PCRE2 10.42. */
  private void brace() throws PcreSyntaxException {
    int n = pattern.length();
    int i = pos + 1;
    int digitsStart = i;
    while (i < n && isDigit(pattern.charAt(i))) {
      i++;
    }
    boolean quantifier = false;
    int end = -1;
    if (i > digitsStart && i < n) {
      if (pattern.charAt(i) == '}') {
        quantifier = true;
        end = i;
      } else if (pattern.charAt(i) == ',') {
        int j = i + 1;
        while (j < n && isDigit(pattern.charAt(j))) {
          j++;
        }
        if (j < n && pattern.charAt(j) == '}') {
          quantifier = true;
          end = j;
        }
      }
    }
    if (!quantifier) {
      literal('{');
      pos++;
      return;
    }
    if (!repeatable) {
      throw error("quantifier does not follow a repeatable item");
    }
    String body = pattern.substring(pos + 1, end);
    String[] bounds = body.split(",", -1);
    long min = Long.parseLong(bounds[0]);
    long max = bounds.length > 1 && !bounds[1].isEmpty() ? Long.parseLong(bounds[1]) : -1;
    if (min > 65535 || max > 65535) {
      throw error("number too big in {} quantifier");
    }
    if (max >= 0 && max < min) {
      throw error("numbers out of order in {} quantifier");
    }
    out.append(pattern, pos, end + 1);
    pos = end + 1;
    if (pos < n && (pattern.charAt(pos) == '?' || pattern.charAt(pos) == '+')) {
      out.append(pattern.charAt(pos));
      pos++;
    }
    repeatable = false;
  }

  private void groupOpen() throws PcreSyntaxException {
    int n = pattern.length();
    if (pos + 1 < n && pattern.charAt(pos + 1) == '*') {
      throw unsupported("(*VERB) and (*OPTION) items");
    }
    if (pos + 1 >= n || pattern.charAt(pos + 1) != '?') {
      capturingGroups++;
      out.append('(');
      pos++;
      depth++;
      repeatable = false;
      return;
    }
    if (pos + 2 >= n) {
      throw error("unrecognized character after (? or (?-");
    }
    char k = pattern.charAt(pos + 2);
    switch (k) {
      case ':', '=', '!', '>' -> open("(?" + k, 3);
      case '<' -> {
        if (pos + 3 < n && (pattern.charAt(pos + 3) == '=' || pattern.charAt(pos + 3) == '!')) {
          open("(?<" + pattern.charAt(pos + 3), 4);
        } else {
          namedGroup(pos + 3, '>');
        }
      }
      case '\'' -> namedGroup(pos + 3, '\'');
      case 'P' -> {
        char p = pos + 3 < n ? pattern.charAt(pos + 3) : 0;
        if (p == '<') {
          namedGroup(pos + 4, '>');
        } else if (p == '=') {
          int close = pattern.indexOf(')', pos + 4);
          if (close < 0) {
            throw error("syntax error in subpattern name (missing terminator?)");
          }
          backReferenceByName(pattern.substring(pos + 4, close));
          pos = close + 1;
        } else {
          throw unsupported("subroutine calls");
        }
      }
      case '#' -> {
        int close = pattern.indexOf(')', pos + 3);
        if (close < 0) {
          throw error("missing ) after (?# comment");
        }
        pos = close + 1;
      }
      case '|' -> throw unsupported("branch reset groups");
      case '(' -> throw unsupported("conditional groups");
      case 'C' -> throw unsupported("callouts");
      case 'R', '&', '+' -> throw unsupported("recursion and subroutine calls");
      default -> {
        if (isDigit(k) || (k == '-' && pos + 3 < n && isDigit(pattern.charAt(pos + 3)))) {
          throw unsupported("recursion and subroutine calls");
        }
        options();
      }
    }
  }

  private void open(String javaOpener, int length) {
    out.append(javaOpener);
    pos += length;
    depth++;
    repeatable = false;
  }

  /** {@code (?i)}, {@code (?-i:...)}: only i, m and s have the same meaning in both dialects. */
  private void options() throws PcreSyntaxException {
    int n = pattern.length();
    int i = pos + 2;
    StringBuilder flags = new StringBuilder();
    while (i < n && pattern.charAt(i) != ')' && pattern.charAt(i) != ':') {
      char f = pattern.charAt(i);
      switch (f) {
        case 'i', 'm', 's', '-' -> flags.append(f);
        case 'x', 'n', 'J', 'U', '^' -> throw unsupported("the (?" + f + ") option");
        default -> throw error("unrecognized character after (? or (?-");
      }
      i++;
    }
    if (i >= n) {
      throw error("missing closing parenthesis");
    }
    if (pattern.charAt(i) == ':') {
      open("(?" + flags + ":", i + 1 - pos);
    } else {
      out.append("(?").append(flags).append(')');
      pos = i + 1;
      // An option setting is not an item: a quantifier after it still needs one before it.
    }
  }

  private void namedGroup(int nameStart, char terminator) throws PcreSyntaxException {
    int close = pattern.indexOf(terminator, nameStart);
    if (close < 0) {
      throw error("syntax error in subpattern name (missing terminator?)");
    }
    String name = pattern.substring(nameStart, close);
    if (!isGroupName(name)) {
      throw error("subpattern name expected");
    }
    capturingGroups++;
    String javaName = "g" + capturingGroups + "n";
    groupNames.putIfAbsent(name, javaName);
    out.append("(?<").append(javaName).append('>');
    pos = close + 1;
    depth++;
    repeatable = false;
  }

  private static boolean isGroupName(String name) {
    if (name.isEmpty() || name.length() > 32 || isDigit(name.charAt(0))) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(isAlnum(c) || c == '_')) {
        return false;
      }
    }
    return true;
  }

  private void backReferenceByName(String name) throws PcreSyntaxException {
    String javaName = groupNames.get(name);
    if (javaName == null) {
      throw error("reference to non-existent subpattern");
    }
    out.append("\\k<").append(javaName).append('>');
    repeatable = true;
  }

  private void backReference(int group) throws PcreSyntaxException {
    if (group <= 0 || group > totalGroups) {
      throw error("reference to non-existent subpattern");
    }
    // Grouped so that a digit after it is not read as part of the number.
    out.append("(?:\\").append(group).append(')');
    repeatable = true;
  }

  private void escape() throws PcreSyntaxException {
    int n = pattern.length();
    if (pos + 1 >= n) {
      throw error("\\ at end of pattern");
    }
    char c = pattern.charAt(pos + 1);
    pos += 2;
    switch (c) {
      case 'd', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V' -> {
        out.append('\\').append(c);
        repeatable = true;
      }
      case 'A', 'z', 'Z', 'G' -> {
        out.append('\\').append(c);
        repeatable = true;
      }
      case 'b' -> {
        out.append("(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))");
        repeatable = true;
      }
      case 'B' -> {
        out.append("(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))");
        repeatable = true;
      }
      case 'R' -> {
        out.append("(?>\\x{d}\\x{a}|[\\x{a}\\x{b}\\x{c}\\x{d}\\x{85}])");
        repeatable = true;
      }
      case 'X' -> {
        out.append("\\X");
        repeatable = true;
      }
      case 'N' -> {
        if (pos < n && pattern.charAt(pos) == '{') {
          throw error("\\N{U+dddd} is supported only in Unicode (UTF) mode");
        }
        out.append("[^\\x{a}]");
        repeatable = true;
      }
      case 'C' -> {
        out.append("(?s:.)");
        repeatable = true;
      }
      case 'Q' -> {
        int end = pattern.indexOf("\\E", pos);
        int stop = end < 0 ? n : end;
        for (int i = pos; i < stop; i++) {
          literal(pattern.charAt(i));
        }
        pos = end < 0 ? n : end + 2;
      }
      case 'E' -> {
        // A \E without \Q is ignored.
      }
      case 'K' -> throw unsupported("\\K");
      case 'g' -> gEscape();
      case 'k' -> kEscape();
      case 'p', 'P' -> property(c);
      case 'u', 'U', 'L', 'l' -> throw error("PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u");
      case '1', '2', '3', '4', '5', '6', '7', '8', '9' -> numberedEscape(c);
      default -> {
        int value = characterEscape(c, false);
        literal(value);
      }
    }
  }

  /**
   * Outside a class, {@code \N} with N a number: a backreference when N < 10, when it starts with
   * 8 or 9, or when the pattern has at least N groups; otherwise up to three octal digits.
   */
  private void numberedEscape(char first) throws PcreSyntaxException {
    int n = pattern.length();
    int start = pos - 1;
    int end = start;
    while (end < n && isDigit(pattern.charAt(end))) {
      end++;
    }
    String digits = pattern.substring(start, end);
    long number = digits.length() > 9 ? Long.MAX_VALUE : Long.parseLong(digits);
    if (number < 10 || first == '8' || first == '9' || number <= totalGroups) {
      if (number > 65535) {
        throw error("subpattern number is too big");
      }
      pos = end;
      backReference((int) number);
      return;
    }
    pos = start;
    literal(octal(3));
  }

  private int octal(int maxDigits) throws PcreSyntaxException {
    int value = 0;
    int count = 0;
    while (count < maxDigits && pos < pattern.length() && pattern.charAt(pos) >= '0' && pattern.charAt(pos) <= '7') {
      value = value * 8 + (pattern.charAt(pos) - '0');
      pos++;
      count++;
    }
    if (value > 0xff) {
      throw error("octal value is greater than \\377 in 8-bit non-UTF mode");
    }
    return value;
  }

  /**
   * The character an escape stands for, for escapes that stand for one character. {@code pos} is
   * just after the escape letter.
   */
  private int characterEscape(char c, boolean inClass) throws PcreSyntaxException {
    int n = pattern.length();
    switch (c) {
      case 'a':
        return 0x07;
      case 'e':
        return 0x1b;
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case '0':
        return octal(2);
      case 'o': {
        if (pos >= n || pattern.charAt(pos) != '{') {
          throw error("missing opening brace after \\o");
        }
        int close = pattern.indexOf('}', pos);
        if (close < 0 || close == pos + 1) {
          throw error("digits missing in \\x{} or \\o{} or \\N{U+}");
        }
        long value = 0;
        for (int i = pos + 1; i < close; i++) {
          char d = pattern.charAt(i);
          if (d < '0' || d > '7') {
            throw error("non-octal character in \\o{} (closing brace missing?)");
          }
          value = Math.min(value * 8 + (d - '0'), Integer.MAX_VALUE);
        }
        pos = close + 1;
        if (value > 0xff) {
          throw error("character code point value in \\x{} or \\o{} is too large");
        }
        return (int) value;
      }
      case 'x': {
        if (pos < n && pattern.charAt(pos) == '{') {
          int close = pattern.indexOf('}', pos);
          if (close < 0) {
            throw error("missing terminating } in \\x{}");
          }
          if (close == pos + 1) {
            throw error("digits missing in \\x{} or \\o{} or \\N{U+}");
          }
          long value = 0;
          for (int i = pos + 1; i < close; i++) {
            int d = Character.digit(pattern.charAt(i), 16);
            if (d < 0) {
              throw error("non-hex character in \\x{} (closing brace missing?)");
            }
            value = Math.min(value * 16 + d, Integer.MAX_VALUE);
          }
          pos = close + 1;
          if (value > 0xff) {
            throw error("character code point value in \\x{} or \\o{} is too large");
          }
          return (int) value;
        }
        int value = 0;
        for (int count = 0; count < 2 && pos < n && Character.digit(pattern.charAt(pos), 16) >= 0; count++) {
          value = value * 16 + Character.digit(pattern.charAt(pos), 16);
          pos++;
        }
        return value;
      }
      case 'c': {
        if (pos >= n) {
          throw error("\\c at end of pattern");
        }
        char x = pattern.charAt(pos);
        if (x < 0x20 || x > 0x7e) {
          throw error("\\c must be followed by a printable ASCII character");
        }
        pos++;
        return Character.toUpperCase(x) ^ 0x40;
      }
      default:
        if (isAlnum(c)) {
          throw error(inClass ? "escape sequence is invalid in character class" : "unrecognized character follows \\");
        }
        return c;
    }
  }

  private void gEscape() throws PcreSyntaxException {
    int n = pattern.length();
    if (pos >= n) {
      throw error("a numbered reference must not be zero");
    }
    char open = pattern.charAt(pos);
    if (open == '<' || open == '\'') {
      throw unsupported("subroutine calls");
    }
    String ref;
    if (open == '{') {
      int close = pattern.indexOf('}', pos);
      if (close < 0) {
        throw error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
      }
      ref = pattern.substring(pos + 1, close);
      pos = close + 1;
    } else {
      int end = pos;
      if (end < n && (pattern.charAt(end) == '-' || pattern.charAt(end) == '+')) {
        end++;
      }
      while (end < n && isDigit(pattern.charAt(end))) {
        end++;
      }
      ref = pattern.substring(pos, end);
      pos = end;
    }
    if (ref.matches("-?[0-9]+")) {
      int number = Integer.parseInt(ref.length() > 6 ? ref.substring(0, 6) : ref);
      if (number < 0) {
        number = capturingGroups + number + 1;
      }
      backReference(number);
    } else if (ref.matches("\\+[0-9]+")) {
      throw unsupported("forward relative references");
    } else if (isGroupName(ref)) {
      backReferenceByName(ref);
    } else {
      throw error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
    }
  }

  private void kEscape() throws PcreSyntaxException {
    int n = pattern.length();
    if (pos >= n) {
      throw error("\\k is not followed by a braced, angle-bracketed, or quoted name");
    }
    char open = pattern.charAt(pos);
    char close = switch (open) {
      case '<' -> '>';
      case '\'' -> '\'';
      case '{' -> '}';
      default -> throw error("\\k is not followed by a braced, angle-bracketed, or quoted name");
    };
    int end = pattern.indexOf(close, pos + 1);
    if (end < 0) {
      throw error("syntax error in subpattern name (missing terminator?)");
    }
    String name = pattern.substring(pos + 1, end);
    pos = end + 1;
    backReferenceByName(name);
  }

  private void property(char p) throws PcreSyntaxException {
    int n = pattern.length();
    String name;
    if (pos < n && pattern.charAt(pos) == '{') {
      int close = pattern.indexOf('}', pos);
      if (close < 0) {
        throw error("malformed \\P or \\p sequence");
      }
      name = pattern.substring(pos + 1, close);
      pos = close + 1;
    } else if (pos < n) {
      name = String.valueOf(pattern.charAt(pos));
      pos++;
    } else {
      throw error("malformed \\P or \\p sequence");
    }
    boolean negated = p == 'P';
    if (name.startsWith("^")) {
      negated = !negated;
      name = name.substring(1);
    }
    if (!name.matches("[A-Za-z&]{1,3}")) {
      // General categories (L, Lu, L&, ...) mean the same in both; scripts and other names do not.
      throw unsupported("\\p{" + name + "}");
    }
    if (name.equals("L&")) {
      name = "LC";
    }
    out.append('\\').append(negated ? 'P' : 'p').append('{').append(name).append('}');
    repeatable = true;
  }

  /** A character class, re-emitted with every literal spelled as a hex escape. */
  private void characterClass() throws PcreSyntaxException {
    int n = pattern.length();
    int start = pos;
    pos++;
    StringBuilder items = new StringBuilder();
    boolean negated = false;
    if (pos < n && pattern.charAt(pos) == '^') {
      negated = true;
      pos++;
    }
    boolean first = true;
    while (true) {
      if (pos >= n) {
        pos = start;
        throw error("missing terminating ] for character class");
      }
      char c = pattern.charAt(pos);
      if (c == ']' && !first) {
        pos++;
        break;
      }
      first = false;
      if (c == '[' && posixClass(items)) {
        if (pos < n - 1 && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
          throw error("invalid range in character class");
        }
        continue;
      }
      int low = classAtom(items);
      if (low < 0) {
        if (pos < n - 1 && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
          throw error("invalid range in character class");
        }
        continue;
      }
      if (pos + 1 < n && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
        int save = pos;
        pos++;
        if (pattern.charAt(pos) == '[' && isPosixStart(pos)) {
          throw error("invalid range in character class");
        }
        StringBuilder discard = new StringBuilder();
        int high = classAtom(discard);
        if (high < 0) {
          throw error("invalid range in character class");
        }
        if (high < low) {
          pos = save;
          throw error("range out of order in character class");
        }
        appendClassChar(items, low);
        items.append('-');
        appendClassChar(items, high);
      } else {
        appendClassChar(items, low);
      }
    }
    if (items.length() == 0) {
      // Only possible for [\Q\E]-like classes: PCRE2 matches nothing (or anything, negated).
      out.append(negated ? "(?s:.)" : "(?!)");
    } else {
      out.append('[').append(negated ? "^" : "").append(items).append(']');
    }
    repeatable = true;
  }

  private static void appendClassChar(StringBuilder items, int c) {
    items.append("\\x{").append(Integer.toHexString(c)).append('}');
  }

  /**
   * One element of a class at {@code pos}: returns its character, or -1 after appending a class
   * escape ({@code \d}, ...) or nothing (an empty {@code \Q\E}) that cannot be a range end.
   */
  private int classAtom(StringBuilder items) throws PcreSyntaxException {
    char c = pattern.charAt(pos);
    if (c != '\\') {
      pos++;
      return c;
    }
    if (pos + 1 >= pattern.length()) {
      throw error("\\ at end of pattern");
    }
    char e = pattern.charAt(pos + 1);
    pos += 2;
    switch (e) {
      case 'd', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V' -> {
        items.append('\\').append(e);
        return -1;
      }
      case 'p', 'P' -> {
        int before = out.length();
        property(e);
        items.append(out, before, out.length());
        out.setLength(before);
        return -1;
      }
      case 'b' -> {
        return 0x08;
      }
      case 'Q' -> {
        int end = pattern.indexOf("\\E", pos);
        int stop = end < 0 ? pattern.length() : end;
        if (stop == pos) {
          pos = end < 0 ? pattern.length() : end + 2;
          return -1;
        }
        // The first quoted character can start a range; the rest are plain members.
        int firstChar = pattern.charAt(pos);
        for (int i = pos + 1; i < stop; i++) {
          appendClassChar(items, pattern.charAt(i));
        }
        if (stop - pos > 1) {
          // Several quoted characters: none of them can begin a range.
          appendClassChar(items, firstChar);
          pos = end < 0 ? pattern.length() : end + 2;
          return -1;
        }
        pos = end < 0 ? pattern.length() : end + 2;
        return firstChar;
      }
      case 'E' -> {
        return -1;
      }
      case '1', '2', '3', '4', '5', '6', '7' -> {
        pos--;
        return octal(3);
      }
      case '8', '9' -> {
        return e;
      }
      case 'N', 'R', 'X', 'B', 'K', 'g', 'k', 'A', 'z', 'Z', 'G', 'C' ->
          throw error("escape sequence is invalid in character class");
      case 'u', 'U', 'L', 'l' -> throw error("PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u");
      default -> {
        return characterEscape(e, true);
      }
    }
  }

  private boolean isPosixStart(int at) {
    if (at + 1 >= pattern.length()) {
      return false;
    }
    char k = pattern.charAt(at + 1);
    if (k != ':' && k != '.' && k != '=') {
      return false;
    }
    // PCRE2 looks for the matching terminator before the class's closing ']'.
    for (int i = at + 2; i < pattern.length() - 1; i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && (pattern.charAt(i + 1) == ']' || pattern.charAt(i + 1) == '\\')) {
        i++;
      } else if (c == ']' || c == '[' && pattern.charAt(i + 1) == k) {
        return false;
      } else if (c == k && pattern.charAt(i + 1) == ']') {
        return true;
      }
    }
    return false;
  }

  private boolean posixClass(StringBuilder items) throws PcreSyntaxException {
    if (!isPosixStart(pos)) {
      return false;
    }
    char k = pattern.charAt(pos + 1);
    if (k != ':') {
      throw error("POSIX collating elements are not supported");
    }
    int end = pattern.indexOf(":]", pos + 2);
    String name = pattern.substring(pos + 2, end);
    boolean negated = name.startsWith("^");
    if (negated) {
      name = name.substring(1);
    }
    String java = switch (name) {
      case "alnum" -> "Alnum";
      case "alpha" -> "Alpha";
      case "ascii" -> "ASCII";
      case "blank" -> "Blank";
      case "cntrl" -> "Cntrl";
      case "digit" -> "Digit";
      case "graph" -> "Graph";
      case "lower" -> "Lower";
      case "print" -> "Print";
      case "punct" -> "Punct";
      case "space" -> "Space";
      case "upper" -> "Upper";
      case "xdigit" -> "XDigit";
      case "word" -> null;
      default -> throw error("unknown POSIX class name");
    };
    if (java == null) {
      items.append(negated ? "\\W" : "\\w");
    } else {
      items.append('\\').append(negated ? 'P' : 'p').append('{').append(java).append('}');
    }
    pos = end + 2;
    return true;
  }

  private PcreSyntaxException error(String message) {
    return new PcreSyntaxException(message, pos);
  }

  private PcreSyntaxException unsupported(String feature) {
    return new PcreSyntaxException(feature + " is valid PCRE2 but not supported by relabel", pos);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isAlnum(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
