package dev.relabel.regex;

import static dev.relabel.regex.PcreByteSets.complement;
import static dev.relabel.regex.PcreByteSets.escapeSet;
import static dev.relabel.regex.PcreByteSets.posixSet;
import static dev.relabel.regex.PcreByteSets.propertySet;

import java.util.BitSet;
import java.util.function.BooleanSupplier;

/**
 * The first stage of {@link PcreTranslator}: reading a PCRE2 pattern as PCRE2's parse_regex
 * reads it. It holds the pattern and the position, and reads what stands for bytes: escapes
 * (octal, hex, braced, control), group names, POSIX classes, Unicode properties and the members
 * of a character class, as sets of bytes. The translator decides what they mean in the pattern's
 * structure and writes the Java; errors carry the position PCRE2 reports.
 */
final class PcreLexer {
  final String pattern;
  /** Where reading stands; the translator moves it past what it reads itself. */
  int pos;
  /** Whether the options in force at {@link #pos} are caseless (PCRE2 folds ASCII letters only). */
  private final BooleanSupplier caseless;

  PcreLexer(String pattern, BooleanSupplier caseless) {
    this.pattern = pattern;
    this.caseless = caseless;
  }

  /** PCRE2's MAX_NAME_SIZE: the longest group name. */
  static final int MAX_NAME_SIZE = 32;
  /** {@code \p{...}} names longer than this are errors in PCRE2 (its buffer holds 49). */
  static final int MAX_PROPERTY_NAME = 49;

  /** PCRE2's read_name at {@code pos}: word bytes up to {@code terminator}, which it consumes. */
  String groupName(char terminator) throws PcreSyntaxException {
    int n = pattern.length();
    int start = pos;
    if (pos < n && isDigit(pattern.charAt(pos))) {
      throw error("subpattern name must start with a non-digit");
    }
    while (pos < n && isWordByte(pattern.charAt(pos))) {
      pos++;
    }
    if (pos - start > MAX_NAME_SIZE) {
      throw error("subpattern name is too long (maximum 32 code units)");
    }
    if (pos >= n || pattern.charAt(pos) != terminator) {
      throw error(pos == start ? "subpattern name expected" : "syntax error in subpattern name (missing terminator?)");
    }
    if (pos == start) {
      throw error("subpattern name expected");
    }
    pos++;
    return pattern.substring(start, pos - 1);
  }

  int octal(int maxDigits) throws PcreSyntaxException {
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
  int characterEscape(char c, boolean inClass) throws PcreSyntaxException {
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
      case 'o':
        return bracedNumber(8);
      case 'x':
        return hexEscape();
      case 'c':
        return controlEscape();
      default:
        if (isAlnum(c)) {
          throw error(inClass ? "escape sequence is invalid in character class" : "unrecognized character follows \\");
        }
        // Any other non-alphanumeric byte stands for itself.
        return c;
    }
  }

  /** {@code \xhh} (up to two hex digits, none meaning 0) or {@code \x{h...}}. */
  int hexEscape() throws PcreSyntaxException {
    int n = pattern.length();
    if (pos < n && pattern.charAt(pos) == '{') {
      return bracedNumber(16);
    }
    int value = 0;
    for (int count = 0; count < 2 && pos < n && Character.digit(pattern.charAt(pos), 16) >= 0; count++) {
      value = value * 16 + Character.digit(pattern.charAt(pos), 16);
      pos++;
    }
    return value;
  }

  /** {@code \o{...}} or {@code \x{...}} at {@code pos} (the brace, or for \o what should be). */
  int bracedNumber(int radix) throws PcreSyntaxException {
    int n = pattern.length();
    if (pos >= n || pattern.charAt(pos) != '{') {
      throw error("missing opening brace after \\o");
    }
    pos++;
    if (pos >= n || pattern.charAt(pos) == '}') {
      throw error("digits missing in \\x{} or \\o{} or \\N{U+}");
    }
    long value = 0;
    while (pos < n && Character.digit(pattern.charAt(pos), radix) >= 0 && pattern.charAt(pos) < 0x80) {
      value = Math.min(value * radix + Character.digit(pattern.charAt(pos), radix), Integer.MAX_VALUE);
      pos++;
    }
    if (value > 0xff) {
      throw error("character code point value in \\x{} or \\o{} is too large");
    }
    if (pos >= n || pattern.charAt(pos) != '}') {
      throw error(radix == 16 ? "non-hex character in \\x{} (closing brace missing?)"
          : "non-octal character in \\o{} (closing brace missing?)");
    }
    pos++;
    return (int) value;
  }

  int controlEscape() throws PcreSyntaxException {
    if (pos >= pattern.length()) {
      throw error("\\c at end of pattern");
    }
    char x = pattern.charAt(pos);
    if (x < 0x20 || x > 0x7e) {
      throw error("\\c must be followed by a printable ASCII character");
    }
    pos++;
    return (x >= 'a' && x <= 'z' ? x - 0x20 : x) ^ 0x40;
  }

  /** The members of a class whose first real character {@code c} has just been read. */
  BitSet classBody(char first, int start) throws PcreSyntaxException {
    int n = pattern.length();
    BitSet set = new BitSet(256);
    char c = first;
    boolean inQuote = false;
    // The last single character, which a '-' can turn into the start of a range.
    int rangeStart = -1;
    boolean rangeStarted = false;
    while (true) {
      int member = -1;
      if (inQuote) {
        if (c == '\\' && pos < n && pattern.charAt(pos) == 'E') {
          inQuote = false;
          pos++;
        } else {
          member = c;
        }
      } else if (c == '[' && n - pos >= 3 && isPosixOpener(pattern.charAt(pos)) && posixEnd(pos) >= 0) {
        if (rangeStarted) {
          throw error("invalid range in character class");
        }
        posixClass(set);
        rangeStart = -1;
      } else if (c == '-' && rangeStart >= 0 && !rangeStarted) {
        rangeStarted = true;
      } else if (c == '\\') {
        int escaped = classEscape(set, rangeStarted);
        if (escaped == QUOTE) {
          inQuote = true;
        } else if (escaped == SET) {
          rangeStart = -1;
        } else if (escaped >= 0) {
          member = escaped;
        }
      } else {
        member = c;
      }
      if (member >= 0) {
        if (rangeStarted) {
          if (member < rangeStart) {
            throw error("range out of order in character class");
          }
          for (int m = rangeStart; m <= member; m++) {
            addChar(set, m);
          }
          rangeStarted = false;
          rangeStart = -1;
        } else {
          addChar(set, member);
          rangeStart = member;
        }
      }
      if (pos >= n) {
        pos = start;
        throw error("missing terminating ] for character class");
      }
      c = pattern.charAt(pos++);
      if (c == ']' && !inQuote) {
        break;
      }
    }
    if (rangeStarted) {
      // A hyphen just before the ']' is a literal.
      addChar(set, '-');
    }
    return set;
  }

  /** {@link #classEscape} results that are not a character. */
  static final int QUOTE = -2;

  static final int SET = -3;

  static final int NOTHING = -4;

  /**
   * An escape inside a class, {@code pos} just after its backslash: a character (which may start
   * or end a range), {@link #QUOTE} for {@code \Q}, {@link #NOTHING} for {@code \E}, or
   * {@link #SET} after adding a class escape such as {@code \d} to {@code set}.
   */
  int classEscape(BitSet set, boolean rangeStarted) throws PcreSyntaxException {
    int n = pattern.length();
    if (pos >= n) {
      throw error("\\ at end of pattern");
    }
    char e = pattern.charAt(pos++);
    BitSet members;
    switch (e) {
      case 'b':
        return 0x08;
      case 'g':
        // Outside a class \g is a reference; inside, PCRE2 takes it for a plain 'g'.
        return 'g';
      case 'Q':
        return QUOTE;
      case 'E':
        return NOTHING;
      case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        pos--;
        return octal(3);
      case '8': case '9':
        return e;
      case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'h': case 'H': case 'v': case 'V':
        members = escapeSet(e);
        break;
      case 'p': case 'P':
        members = property(e == 'P').bytes;
        break;
      case 'N':
        throw error("\\N is not supported in a class");
      case 'u': case 'U': case 'L': case 'l':
        throw error("PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u");
      case 'B': case 'R': case 'X': case 'K': case 'k': case 'A': case 'z': case 'Z': case 'G':
      case 'C':
        throw error("escape sequence is invalid in character class");
      default:
        return characterEscape(e, true);
    }
    // A class escape can neither end a range nor start one.
    if (rangeStarted) {
      throw error("invalid range in character class");
    }
    set.or(members);
    if (pos < n - 1 && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
      throw error("invalid range in character class");
    }
    return SET;
  }

  static boolean isPosixOpener(char c) {
    return c == ':' || c == '.' || c == '=';
  }

  /**
   * PCRE2's check_posix_syntax for the terminator at {@code at} (just after a '['): the index of
   * the closing ":]" (or ".]", "=]"), or -1 when this is not a POSIX class.
   */
  int posixEnd(int at) {
    char terminator = pattern.charAt(at);
    for (int i = at + 1; pattern.length() - i >= 2; i++) {
      char c = pattern.charAt(i);
      char d = pattern.charAt(i + 1);
      if (c == '\\' && (d == ']' || d == '\\')) {
        i++;
      } else if ((c == '[' && d == terminator) || c == ']') {
        return -1;
      } else if (c == terminator && d == ']') {
        return i;
      }
    }
    return -1;
  }

  /** A POSIX class at {@code pos} (just after its '['), added to {@code set}. */
  void posixClass(BitSet set) throws PcreSyntaxException {
    int end = posixEnd(pos);
    if (pattern.charAt(pos) != ':') {
      throw error("POSIX collating elements are not supported");
    }
    String name = pattern.substring(pos + 1, end);
    boolean negated = name.startsWith("^");
    if (negated) {
      name = name.substring(1);
    }
    // Caseless, PCRE2 reads [:upper:] and [:lower:] as [:alpha:].
    if (caseless.getAsBoolean() && (name.equals("upper") || name.equals("lower"))) {
      name = "alpha";
    }
    BitSet members = posixSet(name);
    if (members == null) {
      throw error("unknown POSIX class name");
    }
    if (negated) {
      members.flip(0, 256);
    }
    set.or(members);
    pos = end + 2;
    // A hyphen after a POSIX class must end the class.
    if (pos < pattern.length() - 1 && pattern.charAt(pos) == '-' && pattern.charAt(pos + 1) != ']') {
      throw error("invalid range in character class");
    }
  }

  /** Adds a character and, caseless, its other case (PCRE2's default tables: ASCII letters). */
  void addChar(BitSet set, int c) {
    set.set(c);
    if (caseless.getAsBoolean()) {
      if (c >= 'a' && c <= 'z') {
        set.set(c - 32);
      } else if (c >= 'A' && c <= 'Z') {
        set.set(c + 32);
      }
    }
  }

  /**
   * {@code \p} or {@code \P}, {@code pos} just after the letter: PCRE2's get_ucp with Unicode's
   * loose matching (case, spaces, hyphens and underscores ignored): its bytes and PCRE2 opcode.
   * Caseless matching does not change it in PCRE2.
   */
  PcreItemType property(boolean negated) throws PcreSyntaxException {
    int n = pattern.length();
    int start = pos - 2;
    if (pos >= n) {
      throw error("malformed \\P or \\p sequence");
    }
    char c = pattern.charAt(pos++);
    StringBuilder name = new StringBuilder();
    if (c == '{') {
      if (pos < n && pattern.charAt(pos) == '^') {
        negated = !negated;
        pos++;
      }
      while (true) {
        if (pos >= n) {
          throw error("malformed \\P or \\p sequence");
        }
        c = pattern.charAt(pos++);
        if (c == '_' || c == '-' || c == ' ' || (c >= 0x09 && c <= 0x0d)) {
          continue;
        }
        if (c == 0 || name.length() >= MAX_PROPERTY_NAME) {
          throw error("malformed \\P or \\p sequence");
        }
        if (c == '}') {
          break;
        }
        name.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
      }
    } else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      name.append(Character.toLowerCase(c));
    } else {
      throw error("malformed \\P or \\p sequence");
    }
    BitSet set = propertySet(name.toString());
    if (set == null) {
      if (!Pcre2Properties.known(name.toString())) {
        throw error("unknown property after \\P or \\p");
      }
      throw unsupported("the Unicode property \\p{" + name + "}", start, pos, "a", null);
    }
    return PcreItemType.property(name.toString(), negated,
        negated ? complement(set) : set);
  }

  PcreSyntaxException error(String message) {
    return new PcreSyntaxException(message, pos);
  }

  /**
   * A construct java.util.regex cannot run exactly. Refused as soon as it is met; then {@link
   * PcreReadOn} reads on past it, when a stand-in is given, to find whether PCRE2 would reject
   * the pattern for something else ((?1) without a group 1 is an error there too).
   */
  PcreSyntaxException unsupported(String feature) {
    return new PcreSyntaxException(feature + " is not supported by relabel", pos, true, null);
  }

  /**
   * The same, for a construct from {@code start} to {@code end} that {@code standIn} can replace
   * to read the rest of the pattern ({@link PcreReadOn}); {@code reference} is the group it names.
   */
  PcreSyntaxException unsupported(String feature, int start, int end, String standIn, Object reference) {
    return unsupported(feature, new PcreSyntaxException.StandIn(start, end, standIn, reference, 0));
  }

  PcreSyntaxException unsupported(String feature, PcreSyntaxException.StandIn standIn) {
    return new PcreSyntaxException(feature + " is not supported by relabel", pos, true, standIn);
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isAlnum(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** PCRE2's ctype_word with its default tables: ASCII letters, digits and underscore. */
  static boolean isWordByte(char c) {
    return isAlnum(c) || c == '_';
  }
}
