package dev.relabel.regex;

import static dev.relabel.regex.PcreByteSets.chars;
import static dev.relabel.regex.PcreByteSets.complement;
import static dev.relabel.regex.PcreByteSets.digits;
import static dev.relabel.regex.PcreByteSets.escapeSet;
import static dev.relabel.regex.PcreByteSets.range;
import static dev.relabel.regex.PcreByteSets.space;
import static dev.relabel.regex.PcreByteSets.word;

import java.util.BitSet;

/**
 * What PCRE2 compiles a one-byte item to, as far as its auto-possessification looks: a character
 * type (\d, \S, \h, ., \R, ...) or a Unicode property, with the bytes it matches. PCRE2
 * makes a repeat possessive when it takes the repeated item and the next one to share no
 * character. For types it reads a table (autoposstab) and for properties a few more
 * (propposstab, catposstab, posspropstab), written with Unicode, UCP or other newlines in mind.
 * For libselinux's setup (8-bit, no UCP, default tables, newline LF) some entries are wrong: the
 * table takes \s to include NEL (0x85) and NBSP (0xA0) and "." to exclude every vertical space,
 * where here \s excludes both and "." excludes only LF; and \P{Ll} and \P{Lu} are taken to be
 * disjoint. So PCRE2 makes \S+ possessive before \h, and \S+\h never matches "a\xA0".
 * Chars and classes it compares by their bytes, correctly. This class finds the wrong entries by
 * comparing PCRE2's verdict with the bytes.
 */
final class PcreItemType {
  // autoposstab's rows and columns, as in pcre2_auto_possess.c.
  static final int NOT_DIGIT = 0;
  static final int DIGIT = 1;
  static final int NOT_WHITESPACE = 2;
  static final int WHITESPACE = 3;
  static final int NOT_WORDCHAR = 4;
  static final int WORDCHAR = 5;
  static final int ANY = 6;
  static final int ALLANY = 7;
  static final int ANYBYTE = 8;
  static final int NOTPROP = 9;
  static final int PROP = 10;
  static final int ANYNL = 11;
  static final int NOT_HSPACE = 12;
  static final int HSPACE = 13;
  static final int NOT_VSPACE = 14;
  static final int VSPACE = 15;
  static final int EXTUNI = 16;

  // PCRE2's property types and the category numbers they use.
  static final int PT_ANY = 0;
  static final int PT_LAMP = 1;
  static final int PT_GC = 2;
  static final int PT_PC = 3;
  static final int PT_ALNUM = 6;
  static final int PT_SPACE = 7;
  static final int PT_PXSPACE = 8;
  static final int PT_WORD = 9;
  static final int PT_UCNC = 11;
  static final String GENERAL = "clmnpsz";
  static final String PARTICULAR = "cc cf cn co cs ll lm lo lt lu mc me mn nd nl no pc pd pe pf pi po ps sc sk sm so zl zp zs";
  private static final int GC_C = 0;
  private static final int GC_L = 1;
  private static final int GC_N = 3;
  private static final int GC_P = 4;
  private static final int GC_Z = 6;
  private static final int PC_CC = 0;
  private static final int PC_NL = 14;
  private static final int PC_PO = 21;

  /** autoposstab from PCRE2 10.42, the columns for \Z \z $ left out (no item stands there). */
  private static final String[] AUTOPOSSTAB = {
      "01000000000000000", "10011000000101010", "00010000000101010", "01100100000000000",
      "01000100000000000", "00011000000101010", "00000000000100000", "00000000000000000",
      "00000000000000000", "00000000000000000", "00000000000000000", "01010110000001000",
      "00000000000001000", "01100100000110010", "00000000000100010", "01100100000001100",
      "00000000000000000"};

  /** propposstab from PCRE2 10.42, by PT_ANY, PT_LAMP, PT_GC, PT_PC, ..., PT_BOOL. */
  private static final int[][] PROPPOSSTAB = {
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 3, 0, 0, 0, 0, 3, 1, 1, 0, 0, 0, 0, 0},
      {0, 0, 2, 4, 0, 0, 9, 10, 10, 11, 0, 0, 0, 0}, {0, 0, 5, 2, 0, 0, 15, 16, 16, 17, 0, 0, 0, 0},
      {0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 3, 6, 12, 0, 0, 3, 1, 1, 0, 0, 0, 0, 0}, {0, 1, 7, 13, 0, 0, 1, 3, 3, 1, 0, 0, 0, 0},
      {0, 1, 7, 13, 0, 0, 1, 3, 3, 1, 0, 0, 0, 0}, {0, 0, 8, 14, 0, 0, 0, 1, 1, 3, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};

  /** catposstab: 1 where the particular category (column) is not in the general one (row). */
  private static final String[] CATPOSSTAB = {
      "000001111111111111111111111111", "111110000011111111111111111111", "111111111100011111111111111111",
      "111111111111100011111111111111", "111111111111111100000001111111", "111111111111111111111110000111",
      "111111111111111111111111111000"};

  /** posspropstab: ALNUM, SPACE (and PXSPACE), WORD: two general, a general and a particular category. */
  private static final int[][] POSSPROPSTAB = {
      {GC_L, GC_N, GC_N, PC_NL}, {GC_Z, GC_Z, GC_C, PC_CC}, {GC_L, GC_N, GC_P, PC_PO}};

  /** How each type is written, to look for one later in the pattern. */
  private static final String[][] SPELLINGS = {
      {"\\D"}, {"\\d"}, {"\\S"}, {"\\s"}, {"\\W"}, {"\\w"}, {"\\N", "."}, {".", "\\p"}, {"\\C"}, {"\\P"},
      {"\\p"}, {"\\R"}, {"\\H"}, {"\\h"}, {"\\V"}, {"\\v"}, {"\\X"}};

  final int type;
  final int ptype;
  final int pdata;
  final BitSet bytes;

  private PcreItemType(int type, int ptype, int pdata, BitSet bytes) {
    this.type = type;
    this.ptype = ptype;
    this.pdata = pdata;
    this.bytes = bytes;
  }

  /** A character type: one of the constants above other than PROP and NOTPROP. */
  static PcreItemType of(int type) {
    return new PcreItemType(type, -1, 0, typeBytes(type));
  }

  /**
   * A property item by its loose name (as PcreByteSets.propertySet knows it): PCRE2 compiles
   * \p{Any} to the type ALLANY, the rest to (NOT)PROP with a property type and category.
   */
  static PcreItemType property(String name, boolean negated, BitSet bytes) {
    int ptype = propertyType(name);
    if (ptype == PT_ANY && !negated) {
      return of(ALLANY);
    }
    return new PcreItemType(negated ? NOTPROP : PROP, ptype, propertyData(name), bytes);
  }

  /** The bytes a type matches, or for \R and \X can start with. */
  private static BitSet typeBytes(int type) {
    return switch (type) {
      case NOT_DIGIT, DIGIT -> negatedIf(type == NOT_DIGIT, digits());
      case NOT_WHITESPACE, WHITESPACE -> negatedIf(type == NOT_WHITESPACE, space());
      case NOT_WORDCHAR, WORDCHAR -> negatedIf(type == NOT_WORDCHAR, word());
      case ANY -> complement(chars("\n"));
      case ANYNL -> escapeSet('v');
      case NOT_HSPACE, HSPACE -> negatedIf(type == NOT_HSPACE, escapeSet('h'));
      case NOT_VSPACE, VSPACE -> negatedIf(type == NOT_VSPACE, escapeSet('v'));
      default -> range(0, 0xff);
    };
  }

  private static BitSet negatedIf(boolean negate, BitSet set) {
    return negate ? complement(set) : set;
  }

  private boolean isProperty() {
    return type == PROP || type == NOTPROP;
  }

  /** Whether PCRE2 takes a repeat of this and a following {@code next} to share no byte, wrongly. */
  boolean misjudges(PcreItemType next) {
    if (!bytes.intersects(next.bytes)) {
      return false;
    }
    if (isProperty() && next.isProperty()) {
      return propertiesDisjoint(next);
    }
    return !isProperty() && !next.isProperty() && AUTOPOSSTAB[type].charAt(next.type) == '1';
  }

  /** Whether some item could follow a repeat of this one and be misjudged. */
  boolean misjudgedBefore() {
    if (isProperty()) {
      return true;
    }
    for (int next = 0; next < AUTOPOSSTAB.length; next++) {
      if (next != PROP && next != NOTPROP && misjudges(of(next))) {
        return true;
      }
    }
    return false;
  }

  /** Whether something that could be misjudged after this appears in {@code text}: a rough check. */
  boolean partnerIn(String text) {
    for (int next = 0; next < AUTOPOSSTAB.length; next++) {
      boolean possible = isProperty() ? next == PROP || next == NOTPROP
          : next != PROP && next != NOTPROP && misjudges(of(next));
      if (possible) {
        for (String spelling : SPELLINGS[next]) {
          if (text.contains(spelling)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** PCRE2 10.42's compare_opcodes() for two (NOT)PROP items, case by case. */
  private boolean propertiesDisjoint(PcreItemType next) {
    boolean same = type == next.type;
    boolean lisprop = type == PROP;
    boolean risprop = next.type == PROP;
    int n = PROPPOSSTAB[ptype][next.ptype];
    switch (n) {
      case 1:
        return lisprop && risprop;
      case 2:
        return (pdata == next.pdata) != same;
      case 3:
        return !same;
      case 4:
        return risprop && category(pdata, next.pdata) == same;
      case 5:
        return lisprop && category(next.pdata, pdata) == same;
      case 6: case 7: case 8: {
        int[] p = POSSPROPSTAB[n - 6];
        return risprop && lisprop == (next.pdata != p[0] && next.pdata != p[1] && (next.pdata != p[2] || !lisprop));
      }
      case 9: case 10: case 11: {
        int[] p = POSSPROPSTAB[n - 9];
        return lisprop && risprop == (pdata != p[0] && pdata != p[1] && (pdata != p[2] || !risprop));
      }
      case 12: case 13: case 14: {
        int[] p = POSSPROPSTAB[n - 12];
        return risprop && lisprop == (category(p[0], next.pdata) && category(p[1], next.pdata)
            && (next.pdata != p[3] || !lisprop));
      }
      case 15: case 16: case 17: {
        int[] p = POSSPROPSTAB[n - 15];
        return lisprop && risprop == (category(p[0], pdata) && category(p[1], pdata)
            && (pdata != p[3] || !risprop));
      }
      default:
        return false;
    }
  }

  /** catposstab[general][particular] as a boolean. */
  private static boolean category(int general, int particular) {
    return CATPOSSTAB[general].charAt(particular) == '1';
  }

/** PCRE2's PT_ type of a property name propertySet knows. */
private static int propertyType(String name) {
  return switch (name) {
    case "any" -> PT_ANY;
    case "l&", "lc" -> PT_LAMP;
    case "xan" -> PT_ALNUM;
    case "xps" -> PT_PXSPACE;
    case "xsp" -> PT_SPACE;
    case "xwd" -> PT_WORD;
    case "xuc" -> PT_UCNC;
    default -> name.length() == 1 ? PT_GC : PT_PC;
  };
}

/** PCRE2's category number of a general (one-letter) or particular (two-letter) category. */
private static int propertyData(String name) {
  if (propertyType(name) == PT_GC) {
    return GENERAL.indexOf(name);
  }
  return propertyType(name) == PT_PC ? PARTICULAR.indexOf(name) / 3 : 0;
}
}
