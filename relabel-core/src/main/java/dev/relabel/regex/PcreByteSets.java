package dev.relabel.regex;

import java.util.BitSet;
import java.util.Map;

/**
 * Sets of bytes as PCRE2 10.42 sees them with its default (C locale) tables, in non-UTF mode:
 * class escapes, POSIX classes and Unicode general categories on 0..255, and how such a set is
 * written as a java.util.regex class that means the same whatever flags it is compiled with.
 */
final class PcreByteSets {
  private PcreByteSets() {}

  static BitSet range(int from, int to) {
    BitSet set = new BitSet(256);
    set.set(from, to + 1);
    return set;
  }

  static BitSet chars(String members) {
    BitSet set = new BitSet(256);
    members.chars().forEach(set::set);
    return set;
  }

  static BitSet union(BitSet... sets) {
    BitSet set = new BitSet(256);
    for (BitSet s : sets) {
      set.or(s);
    }
    return set;
  }

  static BitSet complement(BitSet set) {
    BitSet result = (BitSet) set.clone();
    result.flip(0, 256);
    return result;
  }

  static BitSet digits() {
    return range('0', '9');
  }

  static BitSet alpha() {
    return union(range('A', 'Z'), range('a', 'z'));
  }

  static BitSet word() {
    return union(alpha(), digits(), chars("_"));
  }

  /** C-locale isspace(): PCRE2's default tables, so \s includes VT and excludes 0x85 and 0xA0. */
  static BitSet space() {
    return union(range(0x09, 0x0d), chars(" "));
  }

  /** {@code \d \s \w \h \v} and their negations, on bytes with PCRE2's default tables. */
  static BitSet escapeSet(char e) {
    BitSet set = switch (Character.toLowerCase(e)) {
      case 'd' -> digits();
      case 's' -> space();
      case 'w' -> word();
      case 'h' -> chars("\t \u00a0");
      case 'v' -> union(range(0x0a, 0x0d), chars("\u0085"));
      default -> throw new IllegalArgumentException("not a class escape: " + e);
    };
    return Character.isUpperCase(e) ? complement(set) : set;
  }

  /** A POSIX class by name, as PCRE2's default (C locale) tables have it; null if unknown. */
  static BitSet posixSet(String name) {
    return switch (name) {
      case "alpha" -> alpha();
      case "lower" -> range('a', 'z');
      case "upper" -> range('A', 'Z');
      case "alnum" -> union(alpha(), digits());
      case "ascii" -> range(0, 0x7f);
      case "blank" -> chars("\t ");
      case "cntrl" -> union(range(0, 0x1f), chars("\u007f"));
      case "digit" -> digits();
      case "graph" -> range(0x21, 0x7e);
      case "print" -> range(0x20, 0x7e);
      case "punct" -> {
        BitSet set = range(0x21, 0x7e);
        set.andNot(union(alpha(), digits()));
        yield set;
      }
      case "space" -> space();
      case "word" -> word();
      case "xdigit" -> union(digits(), range('A', 'F'), range('a', 'f'));
      default -> null;
    };
  }

  /** Java Character.getType values of each two-letter general category. */
  static final Map<String, Integer> CATEGORIES = Map.ofEntries(
      Map.entry("cc", (int) Character.CONTROL), Map.entry("cf", (int) Character.FORMAT),
      Map.entry("cn", (int) Character.UNASSIGNED), Map.entry("co", (int) Character.PRIVATE_USE),
      Map.entry("cs", (int) Character.SURROGATE), Map.entry("ll", (int) Character.LOWERCASE_LETTER),
      Map.entry("lm", (int) Character.MODIFIER_LETTER), Map.entry("lo", (int) Character.OTHER_LETTER),
      Map.entry("lt", (int) Character.TITLECASE_LETTER), Map.entry("lu", (int) Character.UPPERCASE_LETTER),
      Map.entry("mc", (int) Character.COMBINING_SPACING_MARK), Map.entry("me", (int) Character.ENCLOSING_MARK),
      Map.entry("mn", (int) Character.NON_SPACING_MARK), Map.entry("nd", (int) Character.DECIMAL_DIGIT_NUMBER),
      Map.entry("nl", (int) Character.LETTER_NUMBER), Map.entry("no", (int) Character.OTHER_NUMBER),
      Map.entry("pc", (int) Character.CONNECTOR_PUNCTUATION), Map.entry("pd", (int) Character.DASH_PUNCTUATION),
      Map.entry("pe", (int) Character.END_PUNCTUATION), Map.entry("pf", (int) Character.FINAL_QUOTE_PUNCTUATION),
      Map.entry("pi", (int) Character.INITIAL_QUOTE_PUNCTUATION), Map.entry("po", (int) Character.OTHER_PUNCTUATION),
      Map.entry("ps", (int) Character.START_PUNCTUATION), Map.entry("sc", (int) Character.CURRENCY_SYMBOL),
      Map.entry("sk", (int) Character.MODIFIER_SYMBOL), Map.entry("sm", (int) Character.MATH_SYMBOL),
      Map.entry("so", (int) Character.OTHER_SYMBOL), Map.entry("zl", (int) Character.LINE_SEPARATOR),
      Map.entry("zp", (int) Character.PARAGRAPH_SEPARATOR), Map.entry("zs", (int) Character.SPACE_SEPARATOR));

  /**
   * The bytes a (loosely matched) property name stands for, or null for names this translation
   * does not know: scripts, binary properties and the like. Latin-1's general categories are the
   * same in Java's Unicode data and PCRE2's.
   */
  static BitSet propertySet(String name) {
    switch (name) {
      case "any":
        return range(0, 0xff);
      case "l&", "lc":
        return union(propertySet("lu"), propertySet("ll"), propertySet("lt"));
      case "xan":
        return union(propertySet("l"), propertySet("n"));
      case "xwd":
        return union(propertySet("xan"), chars("_"));
      case "xps", "xsp":
        return union(propertySet("z"), range(0x09, 0x0d), chars("\u0085"));
      case "xuc":
        return union(chars("$@`"), range(0xa0, 0xff));
      default:
        break;
    }
    BitSet set = new BitSet(256);
    if (name.length() == 1 && "clmnpsz".contains(name)) {
      CATEGORIES.forEach((category, type) -> {
        if (category.charAt(0) == name.charAt(0)) {
          set.or(categorySet(type));
        }
      });
      return set;
    }
    Integer type = CATEGORIES.get(name);
    return type == null ? null : categorySet(type);
  }

  static BitSet categorySet(int type) {
    BitSet set = new BitSet(256);
    for (int c = 0; c < 256; c++) {
      if (Character.getType(c) == type) {
        set.set(c);
      }
    }
    return set;
  }

  /**
   * A set of bytes as a Java class, or as the one character it holds. Java never folds case here,
   * as no CASE_INSENSITIVE flag is ever set.
   */
  static String javaSet(BitSet set) {
    int count = set.cardinality();
    if (count == 0) {
      return "(?!)";
    }
    if (count == 1) {
      StringBuilder one = new StringBuilder();
      appendChar(one, set.nextSetBit(0));
      return one.toString();
    }
    if (count == 256) {
      return ".";
    }
    // Written as its complement when that is shorter: [^\n] rather than 255 bytes' worth.
    BitSet others = complement(set);
    boolean negate = runs(others) < runs(set);
    BitSet members = negate ? others : set;
    StringBuilder java = new StringBuilder(negate ? "[^" : "[");
    for (int from = members.nextSetBit(0); from >= 0; from = members.nextSetBit(from)) {
      int to = members.nextClearBit(from) - 1;
      appendChar(java, from);
      if (to > from) {
        if (to > from + 1) {
          java.append('-');
        }
        appendChar(java, to);
      }
      from = to + 1;
    }
    return java.append(']').toString();
  }

  static int runs(BitSet set) {
    int runs = 0;
    for (int from = set.nextSetBit(0); from >= 0 && from < 256; from = set.nextSetBit(set.nextClearBit(from))) {
      runs++;
    }
    return runs;
  }

  /** {@link #appendChar} of each byte, made once. */
  private static final String[] ONE_CHAR = new String[256];

  static {
    for (int c = 0; c < ONE_CHAR.length; c++) {
      StringBuilder java = new StringBuilder(6);
      appendChar(java, c);
      ONE_CHAR[c] = java.toString();
    }
  }

  /** A byte as Java regex syntax that means only itself, as {@link #appendChar} writes it. */
  static String javaChar(int c) {
    return ONE_CHAR[c];
  }

  /** A character as Java regex syntax that means only itself, inside or outside a class. */
  static void appendChar(StringBuilder java, int c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '_'
        || c == ',' || c == ':' || c == '@' || c == '%' || c == '=' || c == '~') {
      java.append((char) c);
    } else if (c == '\n') {
      java.append("\\n");
    } else {
      java.append("\\x{").append(Integer.toHexString(c)).append('}');
    }
  }
}
