package dev.relabel.regex;

import static dev.relabel.regex.PcreByteSets.javaSet;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The state of a {@link PcreTranslator} run and its last stage: what has been written, the item a
 * quantifier would repeat, the open groups, the options in force and PCRE2's size bound, and the
 * primitives that append Java to the output. Stages above it (repeats, groups, the translator's
 * escapes) decide what to write; {@link PcreLexer} reads the pattern.
 */
abstract class PcreWriter {
  /** Before an item is written: PCRE2's auto-possessification looks at it ({@link PcreRepeats}). */
  abstract void autoPossessBefore(PcreItemType type);

  /** Something PCRE2's auto-possessification stops at ({@link PcreRepeats}). */
  abstract void autoPossessClear();

  /** A match length that is not fixed, for PCRE2's fixed-length lookbehind rule. */
  static final int VARIABLE = -1;
  /** The common length of a group's branches before its first branch ends. */
  static final int NO_BRANCH = -2;
  /** Longer than any lookbehind may be; lengths saturate here so they cannot overflow. */
  static final int TOO_LONG = 1 << 24;

  static final int MAX_GROUP_NUMBER = 65535;
  /** The largest number PCRE2 reads after a backslash (INT_MAX / 10 - 1). */
  static final long DIGITS_LIMIT = Integer.MAX_VALUE / 10 - 1;
  static final int MAX_REPEAT_COUNT = 65535;
  static final int MAX_LOOKBEHIND = 65535;
  /** PCRE2's default parens_nest_limit. */
  static final int PARENS_NEST_LIMIT = 250;
  /** PCRE2's limit on compiled code units (LINK_SIZE 2, as Debian builds it). */
  static final long MAX_PATTERN_SIZE = 1 << 16;

  /** The options PCRE2 tracks per group; libselinux starts with DOTALL. */
  record Options(boolean caseless, boolean multiline, boolean dotall) {}

  /** How an item is written in Java, which decides how a quantifier is put on it. */
  enum Shape {
    /** A set of bytes or one byte. */
    ONE_BYTE,
    /** \R or \X: one opcode in PCRE2, a group in Java. */
    TYPE,
    GROUP,
    OTHER
  }

  enum Kind {
    TOP, GROUP, ATOMIC, LOOKAHEAD, LOOKBEHIND;

    /** Whether Java keeps the captures made inside when it backtracks out (PCRE2 forgets them). */
    boolean keepsCaptures() {
      return this == ATOMIC || this == LOOKAHEAD || this == LOOKBEHIND;
    }
  }

  /** An open group: what it is, the options to restore at its ')' and its branches' lengths. */
  static final class Frame {
    final Frame parent;
    final Kind kind;
    final Options outerOptions;
    /** The number the first capturing group inside (or this one) has or will have. */
    final int firstGroup;
    /** This group's number if it captures, else 0. */
    final int group;
    /** Where the group's opener starts in the output. */
    final int outStart;
    int branchLength;
    int groupLength = NO_BRANCH;
    int branches = 1;
    /** Above 0: the alternatives a conditional group's stand-in may hold (see {@link #branchLimits}). */
    int maxBranches;
    /** The shortest the current branch can match, and the shortest of the finished ones. */
    int branchMin;
    int groupMin = Integer.MAX_VALUE;
    /** Whether the group opened where PCRE2 looks for an asserted first code unit. */
    boolean leading;
    /** {@link #size} before the group opened. */
    long sizeAtOpen;

    Frame(Frame parent, Kind kind, Options outerOptions, int firstGroup, boolean capturing, int outStart) {
      this.parent = parent;
      this.kind = kind;
      this.outerOptions = outerOptions;
      this.firstGroup = firstGroup;
      this.group = capturing ? firstGroup : 0;
      this.outStart = outStart;
    }
  }

  /** The last item written: what a quantifier after it repeats. */
  static final class Item {
    /** Where it starts in the output. */
    int start;
    /** Its match length, or {@link #VARIABLE}; and the shortest it can match. */
    int length;
    int minLength;
    Shape shape = Shape.OTHER;
    /** Its PCRE2 character type, for auto-possessification; null when it is none of them. */
    PcreItemType type;
    /** A lookahead, which PCRE2 lets any quantifier repeat in a lookbehind. */
    boolean lookahead;
    /** A group with alternatives. */
    boolean hasAlternatives;
    /** The bound on its PCRE2 code units, and whether PCRE2 copies it to repeat it (a group). */
    long size;
    boolean copied;
    /** The first capturing group inside it (more than {@link #groups} when there is none). */
    int firstGroup = 1;
  }

  /** The pattern and the position being read. */
  final PcreLexer in;
  /** Group names to numbers. Complete in the second pass; being collected in the first. */
  final Map<String, Integer> names;
  final boolean namesComplete;
  final StringBuilder out;
  /** Capturing groups opened so far. */
  int groups;
  /** The highest group a numbered reference names: it must exist by the end of the pattern. */
  int highestReference;
  Options options = new Options(false, false, true);
  Frame frame = topFrame();
  Item last = new Item();
  /** Groups open now. */
  int depth;
  /** Whether the last item can take a quantifier (PCRE2 refuses one after ^, \b, (?i), ...). */
  boolean repeatable;
  /** Whether the last item was a quantifier, so that a '?' or '+' makes it lazy or possessive. */
  boolean quantified;
  /** A repeat of a group that can match empty, written out as PCRE2 compiles it (see expand). */
  int[] expansion;
  /** Whether a repeat of a single byte, \R or \X that PCRE2 could make possessive has come. */
  boolean sawIterator;
  /**
   * Whether only what PCRE2's first_significant_code() skips has come since the start of this
   * top-level branch, in every group around: where an asserted first code unit is looked for.
   */
  boolean leading = true;
  /** {@link #leading} as it was before the last item. */
  boolean leadingBeforeItem = true;
  /**
   * An upper bound on the code units PCRE2 compiles the pattern so far to. PCRE2 refuses a
   * pattern over 64K code units, and copies a repeated group as many times as the repeat says,
   * so (?:ab){7000} is too large for it; past the bound, whether PCRE2 accepts it is not known.
   */
  long size;
  /** A repeat of this type was just written, PCRE2 may yet wrongly make it possessive. */
  PcreItemType possessCandidate;
  /** Whether that repeat is lazy. */
  boolean possessLazy;
  /** The last item made the repeat before it possessive; that holds only if it cannot be empty. */
  PcreItemType possessMadeBy;
  /** The last item followed such a repeat; if it turns out optional PCRE2 looks past it. */
  PcreItemType possessLooksThrough;
  /** Whether the last quantifier was already written possessive, so a '?' or '+' after it is dropped. */
  boolean forcedPossessive;
  /** Capturing groups that are repeated or inside a repeat, lookaround or atomic group. */
  final BitSet capturesLeak = new BitSet();
  /** Capturing groups some backreference names. */
  final BitSet referenced = new BitSet();
  /** For each capturing group, the groups that backreferences inside it name. */
  final Map<Integer, BitSet> referencesInside = new HashMap<>();

  Frame topFrame() {
    Frame top = new Frame(null, Kind.TOP, options, 1, false, 0);
    top.leading = true;
    return top;
  }

  /**
   * Set by {@link PcreReadOn}, which reads a pattern on past a construct relabel cannot run: the
   * limits of an exact translation ({@link #refuse}) then pass, since the translation is not
   * used, only whether PCRE2 would reject the rest of the pattern.
   */
  boolean readingOn;
  /** Reading on: where a conditional group's stand-in opens, and the alternatives it may hold. */
  Map<Integer, Integer> branchLimits = Map.of();

  /**
   * A limit of what relabel translates exactly was reached: refused, unless reading on (its
   * stand-in is nothing: the same pattern is read again, on past the limit).
   */
  void refuse(String feature) throws PcreSyntaxException {
    if (!readingOn) {
      throw in.unsupported(feature, in.pos, in.pos, "", null);
    }
  }

  PcreWriter(String pattern, Map<String, Integer> names, boolean namesComplete) {
    this.in = new PcreLexer(pattern, () -> options.caseless());
    this.names = names;
    this.namesComplete = namesComplete;
    this.out = new StringBuilder(pattern.length() + 16);
  }

  /**
   * Emits something that matches {@code length} bytes (or {@link #VARIABLE}, and then at least
   * {@code minLength}) and can be repeated.
   */
  void item(String java, int length, int minLength) {
    item(java, length, minLength, Shape.OTHER, null);
  }

  /** Emits a set of bytes or a single byte: one Java node, whose possessive repeat is PCRE2's. */
  void oneByte(String java, PcreItemType type) {
    item(java, 1, 1, Shape.ONE_BYTE, type);
  }

  void item(String java, int length, int minLength, Shape shape, PcreItemType type) {
    autoPossessBefore(type);
    leadingBeforeItem = leading;
    leading = false;
    int start = out.length();
    out.append(java);
    finishItem(start, length, minLength, shape, type);
    // A character, type or property is at most 3 code units, \R and a backreference 5.
    last.size = shape == Shape.ONE_BYTE ? 3 : 10;
    size += last.size;
  }

  /** Records the item just written at {@code start} as the one a quantifier would repeat. */
  void finishItem(int start, int length, int minLength, Shape shape, PcreItemType type) {
    frame.branchLength = add(frame.branchLength, length);
    frame.branchMin = Math.min(frame.branchMin + minLength, TOO_LONG);
    last = new Item();
    last.start = start;
    last.length = length;
    last.minLength = minLength;
    last.shape = shape;
    last.type = type;
    last.firstGroup = groups + 1;
    expansion = null;
    repeatable = true;
    quantified = false;
  }

  /** Emits a lookahead: zero-width, and repeatable in PCRE2 and in Java. */
  void lookahead(String java) {
    autoPossessClear();
    item(java, 0, 0);
    last.lookahead = true;
  }

  /**
   * Emits a zero-width assertion that PCRE2 does not allow a quantifier on. {@code skipped}: one
   * that PCRE2 looks past for an asserted first code unit (\b and \B).
   */
  void assertion(String java, boolean skipped) {
    autoPossessClear();
    size += 2;
    if (!skipped) {
      leading = false;
    }
    out.append(java);
    repeatable = false;
    quantified = false;
  }

  void literal(int c) {
    if (c < 256 && (!options.caseless() || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'))) {
      // One byte that means itself: most of every policy's patterns.
      oneByte(PcreByteSets.javaChar(c), null);
      return;
    }
    BitSet set = new BitSet(256);
    in.addChar(set, c);
    oneByte(javaSet(set), null);
  }

  static int add(int a, int b) {
    if (a == VARIABLE || b == VARIABLE) {
      return VARIABLE;
    }
    return Math.min(a + b, TOO_LONG);
  }
}
