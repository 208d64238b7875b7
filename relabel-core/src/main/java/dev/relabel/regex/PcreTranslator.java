package dev.relabel.regex;

import static dev.relabel.regex.PcreByteSets.complement;
import static dev.relabel.regex.PcreByteSets.escapeSet;
import static dev.relabel.regex.PcreByteSets.javaSet;
import static dev.relabel.regex.PcreByteSets.posixSet;
import static dev.relabel.regex.PcreByteSets.propertySet;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a PCRE2 pattern (8-bit, non-UTF, {@code PCRE2_DOTALL}, as libselinux 3.4 compiles it
 * with PCRE2 10.42) into a java.util.regex pattern that matches the same byte strings, each byte
 * held as one char 0..255. The output is compiled with {@link PcrePattern#FLAGS} and relies on
 * DOTALL only: everything that depends on an option is spelled out, so Java never sees a flag.
 * PcreDifferentialTest checks all of this against the system's PCRE2.
 *
 * <p>Where the two dialects read the same text differently, the output spells the PCRE2 meaning
 * out explicitly:
 *
 * <ul>
 *   <li>A {@code {} that does not start {@code {n}}, {@code {n,}} or {@code {n,m}} is a literal
 *       in PCRE2 10.42 (so are {@code {,n}} and {@code {}}) and an error in Java.
 *   <li>Every character class, POSIX class ({@code [:alpha:]}), class escape ({@code \d},
 *       {@code \s}, {@code \h}, ...) and Unicode property ({@code \p{Lu}}) is computed here as a
 *       set of bytes ({@link PcreByteSets}) and written as an explicit Java class. That settles
 *       {@code [} and {@code &&} being literals in PCRE2 classes, a leading {@code ]}, PCRE2's
 *       range and hyphen rules, {@code \Q..\E} and {@code \E} inside classes, POSIX classes Java
 *       lacks, property names PCRE2 matches loosely ({@code \p{lu}}, {@code \p{L&}}), PCRE2's C
 *       locale tables ({@code \s} has VT but neither NEL nor NBSP), and case folding: Java's
 *       CASE_INSENSITIVE also folds {@code \p{Lu}}, PCRE2's does not, and turns
 *       {@code [:upper:]} into {@code [:alpha:]}.
 *   <li>{@code (?i)}, {@code (?m)}, {@code (?s)} and {@code (?^)} are tracked with PCRE2's scoping:
 *       a caseless letter becomes {@code [aA]} (PCRE2 folds ASCII only), a caseless backreference
 *       {@code (?i:\1)}, and {@code ^}, {@code $}, {@code \Z} and {@code .} explicit lookarounds
 *       and classes on {@code \n}, PCRE2's only newline.
 *   <li>{@code \b} and {@code \B} use Unicode letters in Java 17 and ASCII word bytes in PCRE2.
 *   <li>Octal and hex escapes ({@code \0}, {@code \012}, {@code \x9}, {@code \o{..}}), control
 *       escapes, {@code \Q..\E} and the octal-or-backreference reading of {@code \N} (decided by
 *       the groups opened before it) follow PCRE2; named groups become plain groups and
 *       references to them group numbers (PCRE2 allows them before the group: two passes).
 *   <li>{@code \N} is "not a newline", {@code \C} one byte, {@code \R} and {@code \X} atomic
 *       groups ({@code \X} is CR LF or one byte on 0..255), {@code [[:<:]]} and
 *       {@code [[:>:]]} word-start and word-end assertions.
 *   <li>PCRE2 refuses a quantifier after {@code ^}, {@code $}, {@code \b}, {@code \A} and option
 *       settings, sees {@code (?#...)} and {@code \Q\E} as nothing at all, requires each branch
 *       of a lookbehind to have a fixed length (a repeat is fixed only as {n}), limits nesting
 *       to 250 and the compiled pattern to 64K code units; so does this translation.
 *   <li>A repeat of a group that can match empty is written out as PCRE2 copies it (Java's loop
 *       stops at an empty iteration, even below its minimum), a possessive repeat of a group as
 *       an atomic group (Java's does not backtrack between iterations), and a fixed repeat in a
 *       lookbehind as possessive (Java cannot bound the greedy one's length).
 *   <li>PCRE2 10.42 makes a repeat possessive where it wrongly takes the next item to share no
 *       byte with it ({@code \S+\h} never matches "a" NBSP; see {@link PcreItemType}): so does
 *       this translation where the next item is adjacent.
 * </ul>
 *
 * <p>The rest is refused with a {@link PcreSyntaxException} saying "not supported by relabel"
 * rather than approximated. What Java cannot express: recursion and subroutine calls,
 * conditionals, branch reset, {@code (*VERB)} and other {@code (*...)} items, callouts,
 * {@code \K}, non-atomic assertions, the {@code x}, {@code n}, {@code J} and {@code U} options,
 * Unicode properties other than general categories, {@code Any} and {@code Xan Xps Xsp Xwd Xuc},
 * backreferences inside a lookbehind or to a group numbered 10 or more before it opens, and
 * backreferences to a group that is repeated or inside a repeat, lookaround or atomic group
 * (Java keeps or drops such captures differently). And what PCRE2 10.42 gets wrong in ways only
 * a port of its compiler could follow: a lookahead that starts the pattern (its asserted first
 * byte and the required last byte are taken to be different bytes), a group with alternatives
 * repeated {0} (its start-of-match analysis then misreads the pattern), a backreference inside
 * the group it names (its minimum length ignores that branch), an atomic group with
 * alternatives after a repeat, a misjudged repeat whose next item is optional or across a
 * group boundary, and patterns that may exceed PCRE2's size limit.
 */
final class PcreTranslator {
  /** A match length that is not fixed, for PCRE2's fixed-length lookbehind rule. */
  private static final int VARIABLE = -1;
  /** The common length of a group's branches before its first branch ends. */
  private static final int NO_BRANCH = -2;
  /** Longer than any lookbehind may be; lengths saturate here so they cannot overflow. */
  private static final int TOO_LONG = 1 << 24;

  private static final int MAX_GROUP_NUMBER = 65535;
  /** The largest number PCRE2 reads after a backslash (INT_MAX / 10 - 1). */
  private static final long DIGITS_LIMIT = Integer.MAX_VALUE / 10 - 1;
  private static final int MAX_REPEAT_COUNT = 65535;
  private static final int MAX_LOOKBEHIND = 65535;
  /** PCRE2's default parens_nest_limit. */
  private static final int PARENS_NEST_LIMIT = 250;
  /** PCRE2's limit on compiled code units (LINK_SIZE 2, as Debian builds it). */
  private static final long MAX_PATTERN_SIZE = 1 << 16;

  /** The options PCRE2 tracks per group; libselinux starts with DOTALL. */
  private record Options(boolean caseless, boolean multiline, boolean dotall) {}

  /** How an item is written in Java, which decides how a quantifier is put on it. */
  private enum Shape {
    /** A set of bytes or one byte. */
    ONE_BYTE,
    /** \R or \X: one opcode in PCRE2, a group in Java. */
    TYPE,
    GROUP,
    OTHER
  }

  private enum Kind {
    TOP, GROUP, ATOMIC, LOOKAHEAD, LOOKBEHIND;

    /** Whether Java keeps the captures made inside when it backtracks out (PCRE2 forgets them). */
    boolean keepsCaptures() {
      return this == ATOMIC || this == LOOKAHEAD || this == LOOKBEHIND;
    }
  }

  /** An open group: what it is, the options to restore at its ')' and its branches' lengths. */
  private static final class Frame {
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
  private static final class Item {
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
  private final PcreLexer in;
  /** Group names to numbers. Complete in the second pass; being collected in the first. */
  private final Map<String, Integer> names;
  private final boolean namesComplete;
  private final StringBuilder out;
  /** Capturing groups opened so far. */
  private int groups;
  /** The highest group a numbered reference names: it must exist by the end of the pattern. */
  private int highestReference;
  private Options options = new Options(false, false, true);
  private Frame frame = topFrame();
  private Item last = new Item();
  /** Groups open now. */
  private int depth;
  /** Whether the last item can take a quantifier (PCRE2 refuses one after ^, \b, (?i), ...). */
  private boolean repeatable;
  /** Whether the last item was a quantifier, so that a '?' or '+' makes it lazy or possessive. */
  private boolean quantified;
  /** A repeat of a group that can match empty, written out as PCRE2 compiles it (see expand). */
  private int[] expansion;
  /** Whether a repeat of a single byte, \R or \X that PCRE2 could make possessive has come. */
  private boolean sawIterator;
  /**
   * Whether only what PCRE2's first_significant_code() skips has come since the start of this
   * top-level branch, in every group around: where an asserted first code unit is looked for.
   */
  private boolean leading = true;
  /** {@link #leading} as it was before the last item. */
  private boolean leadingBeforeItem = true;
  /**
   * An upper bound on the code units PCRE2 compiles the pattern so far to. PCRE2 refuses a
   * pattern over 64K code units, and copies a repeated group as many times as the repeat says,
   * so (?:ab){7000} is too large for it; past the bound, whether PCRE2 accepts it is not known.
   */
  private long size;
  /** A repeat of this type was just written, PCRE2 may yet wrongly make it possessive. */
  private PcreItemType possessCandidate;
  /** Whether that repeat is lazy. */
  private boolean possessLazy;
  /** The last item made the repeat before it possessive; that holds only if it cannot be empty. */
  private PcreItemType possessMadeBy;
  /** The last item followed such a repeat; if it turns out optional PCRE2 looks past it. */
  private PcreItemType possessLooksThrough;
  /** Whether the last quantifier was already written possessive, so a '?' or '+' after it is dropped. */
  private boolean forcedPossessive;
  /** Capturing groups that are repeated or inside a repeat, lookaround or atomic group. */
  private final BitSet capturesLeak = new BitSet();
  /** Capturing groups some backreference names. */
  private final BitSet referenced = new BitSet();
  /** For each capturing group, the groups that backreferences inside it name. */
  private final Map<Integer, BitSet> referencesInside = new HashMap<>();

  private Frame topFrame() {
    Frame top = new Frame(null, Kind.TOP, options, 1, false, 0);
    top.leading = true;
    return top;
  }

  private PcreTranslator(String pattern, Map<String, Integer> names, boolean namesComplete) {
    this.in = new PcreLexer(pattern, () -> options.caseless());
    this.names = names;
    this.namesComplete = namesComplete;
    this.out = new StringBuilder(pattern.length() + 16);
  }

  /** Translates a whole PCRE2 pattern; see the class comment. */
  static String translate(String pattern) throws PcreSyntaxException {
    // PCRE2 allows a reference to a named group before the group: collect the names first. A
    // pattern that can neither name a group nor refer to one by name needs no first pass (most of
    // a policy's patterns: the pass doubled the time of a policy's load).
    Map<String, Integer> names = new HashMap<>();
    if (pattern.contains("(?") || pattern.contains("\\k") || pattern.contains("\\g")) {
      new PcreTranslator(pattern, names, false).run();
    }
    PcreTranslator translator = new PcreTranslator(pattern, names, true);
    translator.run();
    return translator.out.toString();
  }

  private void run() throws PcreSyntaxException {
    int n = in.pattern.length();
    while (in.pos < n) {
      if (depth > PARENS_NEST_LIMIT) {
        throw in.error("parentheses are too deeply nested");
      }
      char c = in.pattern.charAt(in.pos);
      if (quantified && (c == '?' || c == '+')) {
        // Lazy or possessive; anything but nothing between ends the chance.
        modifier(c);
        continue;
      }
      switch (c) {
        case '\\' -> escape();
        case '[' -> characterClass();
        case '(' -> groupOpen();
        case ')' -> groupClose();
        case '|' -> alternative();
        case '*' -> quantifier(0, -1, 1);
        case '+' -> quantifier(1, -1, 1);
        case '?' -> quantifier(0, 1, 1);
        case '{' -> brace();
        case '^' -> {
          in.pos++;
          assertion(options.multiline() ? "(?:\\A|(?<=\\n)(?!\\z))" : "\\A", false);
        }
        case '$' -> {
          in.pos++;
          assertion(options.multiline() ? "(?=\\n|\\z)" : "(?=\\n?\\z)", false);
        }
        case '.' -> {
          in.pos++;
          // PcrePattern compiles with DOTALL, so a bare '.' is any byte.
          oneByte(options.dotall() ? "." : "[^\\n]", PcreItemType.of(options.dotall() ? PcreItemType.ALLANY : PcreItemType.ANY));
        }
        default -> {
          in.pos++;
          literal(c);
        }
      }
    }
    if (frame.parent != null) {
      throw in.error("missing closing parenthesis");
    }
    autoPossessClear();
    checkSize();
    if (highestReference > groups) {
      throw in.error("reference to non-existent subpattern");
    }
    for (int group : referencesInside.keySet()) {
      if (referencesReach(group, group)) {
        throw in.unsupported("a backreference inside the group it names (directly or through other references)");
      }
    }
  }

  /**
   * Whether the references inside {@code from} lead, through the groups they name, to
   * {@code target}. PCRE2 computes a pattern's minimum length and never tries a start position
   * with fewer bytes left. Meeting such a cycle it ignores the branch (unless it is the first),
   * and (a|\1?). gets a minimum of 2 though it matches "{".
   */
  private boolean referencesReach(int from, int target) {
    BitSet seen = new BitSet();
    ArrayDeque<Integer> pending = new ArrayDeque<>(List.of(from));
    while (!pending.isEmpty()) {
      BitSet named = referencesInside.get(pending.pop());
      for (int g = named == null ? -1 : named.nextSetBit(0); g >= 0; g = named.nextSetBit(g + 1)) {
        if (g == target) {
          return true;
        }
        if (!seen.get(g)) {
          seen.set(g);
          pending.push(g);
        }
      }
    }
    return false;
  }

  // ---- Items, lengths and quantifiers ----

  /**
   * Emits something that matches {@code length} bytes (or {@link #VARIABLE}, and then at least
   * {@code minLength}) and can be repeated.
   */
  private void item(String java, int length, int minLength) {
    item(java, length, minLength, Shape.OTHER, null);
  }

  /** Emits a set of bytes or a single byte: one Java node, whose possessive repeat is PCRE2's. */
  private void oneByte(String java, PcreItemType type) {
    item(java, 1, 1, Shape.ONE_BYTE, type);
  }

  private void item(String java, int length, int minLength, Shape shape, PcreItemType type) {
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
  private void finishItem(int start, int length, int minLength, Shape shape, PcreItemType type) {
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
  private void lookahead(String java) {
    autoPossessClear();
    item(java, 0, 0);
    last.lookahead = true;
  }

  /**
   * Emits a zero-width assertion that PCRE2 does not allow a quantifier on. {@code skipped}: one
   * that PCRE2 looks past for an asserted first code unit (\b and \B).
   */
  private void assertion(String java, boolean skipped) {
    autoPossessClear();
    size += 2;
    if (!skipped) {
      leading = false;
    }
    out.append(java);
    repeatable = false;
    quantified = false;
  }

  private void literal(int c) {
    if (c < 256 && (!options.caseless() || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'))) {
      // One byte that means itself: most of every policy's patterns.
      oneByte(PcreByteSets.javaChar(c), null);
      return;
    }
    BitSet set = new BitSet(256);
    in.addChar(set, c);
    oneByte(javaSet(set), null);
  }

  private static int add(int a, int b) {
    if (a == VARIABLE || b == VARIABLE) {
      return VARIABLE;
    }
    return Math.min(a + b, TOO_LONG);
  }

  /** A quantifier of {@code length} pattern chars at {@code pos}; {@code max} -1 is unbounded. */
  private void quantifier(int min, int max, int length) throws PcreSyntaxException {
    if (!repeatable) {
      throw in.error("quantifier does not follow a repeatable item");
    }
    if (max == 0 && last.hasAlternatives) {
      /*
       * PCRE2 keeps a group repeated {0} behind OP_SKIPZERO, and its first_significant_code()
       * skips only the group's first branch: the start-of-match analysis then reads the second
       * branch as what follows. (?:x|^){0}a is taken as anchored and does not match "ba".
       */
      throw in.unsupported("a group with alternatives repeated {0}");
    }
    // The last item's length, repeated: fixed only for {n} (PCRE2 does not look at what it
    // repeats, even an empty group) or for a lookaround.
    int repeated;
    if (last.lookahead) {
      repeated = 0;
    } else if (last.length == VARIABLE || min != max) {
      repeated = VARIABLE;
    } else {
      repeated = (int) Math.min((long) last.length * min, TOO_LONG);
    }
    if (frame.branchLength != VARIABLE) {
      frame.branchLength = repeated == VARIABLE ? VARIABLE : Math.min(frame.branchLength - last.length + repeated, TOO_LONG);
    }
    frame.branchMin = (int) Math.min(frame.branchMin - last.minLength + (long) last.minLength * min, TOO_LONG);
    if (max == 0) {
      // PCRE2 drops the item (or skips it with OP_SKIPZERO): it is not there to start a branch.
      leading = leadingBeforeItem;
    }
    repeatSize(min, max);
    autoPossessQuantifier(min);
    capturesLeak(last.firstGroup);
    if (min != max && (last.shape == Shape.ONE_BYTE || last.shape == Shape.TYPE)) {
      sawIterator = true;
    }
    if (last.shape == Shape.GROUP && last.minLength == 0 && (min >= 2 || (max != -1 && max >= 2))) {
      expansion = new int[] {min, max};
      expandedOriginal = out.substring(last.start);
      expand(false);
      in.pos += length;
      repeatable = false;
      quantified = true;
      forcedPossessive = false;
      return;
    }
    /*
     * Java cannot bound the length of a greedy or lazy {n} on a group with alternatives, and then
     * refuses it in a lookbehind; a possessive one it can. In a PCRE2 lookbehind every iteration
     * has the same fixed length, so what follows depends only on where the iterations end, not on
     * which alternatives matched: possessive gives the same answer (and the same captures).
     */
    forcedPossessive = min == max && inLookbehind();
    if (min == 0 && max == -1) {
      out.append('*');
    } else if (min == 1 && max == -1) {
      out.append('+');
    } else if (min == 0 && max == 1) {
      out.append('?');
    } else {
      out.append('{').append(min).append(max == min ? "" : ",").append(max == -1 || max == min ? "" : String.valueOf(max))
          .append('}');
    }
    if (forcedPossessive) {
      out.append('+');
    }
    if (!forcedPossessive && min != max && last.type != null && last.type.misjudgedBefore()) {
      possessCandidate = last.type;
      possessLazy = false;
    }
    in.pos += length;
    repeatable = false;
    quantified = true;
  }

  /** Counts a repeat of the last item into {@link #size}, refusing a pattern that may be too large. */
  private void repeatSize(int min, int max) throws PcreSyntaxException {
    long repeated;
    if (last.copied) {
      // min copies, then max - min optional ones, each in brackets with a BRAZERO; unbounded, one more.
      long copies = max == -1 ? Math.max(min, 1) + 1L : Math.max(max, 1);
      repeated = copies * (last.size + 7) + 6;
    } else {
      // An exact count and an "up to" count, each with its character.
      repeated = 2 * last.size + 8;
    }
    size += repeated - last.size;
    last.size = repeated;
    checkSize();
  }

  private void checkSize() throws PcreSyntaxException {
    if (size + 8 > MAX_PATTERN_SIZE) {
      throw in.unsupported("a pattern that may be too large for PCRE2");
    }
  }

  /** A '?' or '+' just after a quantifier: lazy or possessive. */
  private void modifier(char c) throws PcreSyntaxException {
    in.pos++;
    quantified = false;
    if (forcedPossessive) {
      return;
    }
    if (c == '?') {
      if (expansion != null) {
        expand(true);
      } else {
        out.append('?');
      }
      possessLazy = true;
      return;
    }
    possessCandidate = null;
    if (last.shape == Shape.ONE_BYTE) {
      out.append('+');
    } else {
      // Java repeats a group possessively one iteration at a time, never backtracking into one to
      // let the next match: (?:.+){2}+ fails on "ab". PCRE2's X{2}+ is (?>X{2}).
      out.insert(last.start, "(?>").append(')');
    }
  }

  /**
   * Writes out the repeat of a group that can match empty the way PCRE2 compiles it: min copies,
   * then either max - min nested optional copies or, unbounded, a repeat of the last copy. Java's
   * loop stops at an empty iteration even below its minimum, so (?:\A|.){3}\z would not
   * match "a", where PCRE2's copies match \A, \A, then "a". Copies do not capture: the
   * original keeps the group numbers.
   */
  private void expand(boolean lazy) {
    int min = expansion[0];
    int max = expansion[1];
    String original = expandedOriginal;
    String copy = nonCapturing(original);
    StringBuilder java = new StringBuilder();
    String optional = lazy ? "??" : "?";
    if (min == 0) {
      // Nested optional copies, the first the original: (?:X(?:X)?)?
      java.append("(?:").append(original);
      for (int i = 1; i < max; i++) {
        java.append("(?:").append(copy);
      }
      for (int i = 0; i < max; i++) {
        java.append(')').append(optional);
      }
    } else {
      java.append(original);
      for (int i = 1; i < (max == -1 ? min - 1 : min); i++) {
        java.append(copy);
      }
      if (max == -1) {
        java.append("(?:").append(copy).append(lazy ? ")+?" : ")+");
      } else if (max > min) {
        for (int i = min; i < max; i++) {
          java.append("(?:").append(copy);
        }
        for (int i = min; i < max; i++) {
          java.append(')').append(optional);
        }
      }
    }
    out.setLength(last.start);
    out.append(java);
  }

  /** The original copy of an expanded repeat, before it was written out. */
  private String expandedOriginal;

  /** Java text with its capturing groups made non-capturing: every '(' not before '?' captures. */
  private static String nonCapturing(String java) {
    StringBuilder result = new StringBuilder(java.length() + 8);
    for (int i = 0; i < java.length(); i++) {
      char c = java.charAt(i);
      result.append(c);
      if (c == '(' && (i + 1 >= java.length() || java.charAt(i + 1) != '?')) {
        result.append("?:");
      }
    }
    return result.toString();
  }

  // ---- PCRE2's auto-possessification mistakes (see PcreItemType) ----

  /**
   * Before an item of type {@code type}: PCRE2 makes a repeat just before it possessive when it
   * takes the two to share no byte, so where it takes that wrongly, so does this translation.
   */
  private void autoPossessBefore(PcreItemType type) {
    possessMadeBy = null;
    possessLooksThrough = null;
    PcreItemType repeated = possessCandidate;
    possessCandidate = null;
    if (repeated == null) {
      return;
    }
    if (type != null && repeated.misjudges(type)) {
      if (possessLazy) {
        out.setLength(out.length() - 1);
      }
      out.append('+');
      possessMadeBy = repeated;
    } else {
      possessLooksThrough = repeated;
    }
  }

  /**
   * A quantifier on the item after such a repeat. With a minimum of 0 PCRE2 looks past the item
   * to decide, through groups and alternatives: rather than follow it there, refuse when the
   * rest of the pattern could hold a misjudged partner.
   */
  private void autoPossessQuantifier(int min) throws PcreSyntaxException {
    PcreItemType madeBy = possessMadeBy;
    PcreItemType through = possessLooksThrough;
    possessMadeBy = null;
    possessLooksThrough = null;
    if (min == 0 && (madeBy != null || (through != null && through.partnerIn(in.pattern.substring(in.pos))))) {
      throw autoPossessUnsupported();
    }
  }

  /** A group opens or closes, or a branch ends, just after such a repeat: PCRE2 looks on. */
  private void autoPossessAcrossStructure() throws PcreSyntaxException {
    PcreItemType repeated = possessCandidate;
    autoPossessClear();
    if (repeated != null && repeated.partnerIn(in.pattern.substring(in.pos))) {
      throw autoPossessUnsupported();
    }
  }

  /** Something PCRE2 stops at (an assertion, a backreference, the end): nothing to emulate. */
  private void autoPossessClear() {
    possessCandidate = null;
    possessMadeBy = null;
    possessLooksThrough = null;
  }

  private PcreSyntaxException autoPossessUnsupported() {
    return in.unsupported("a repeat that PCRE2 may wrongly make possessive");
  }

  /**
   * Capturing groups from {@code first} on (to the last opened) are repeated, or inside a repeat,
   * lookaround or atomic group. Java keeps what such a group captured when it backtracks out of
   * the construct, or leaves it unset after an empty iteration, where PCRE2 restores or sets it:
   * (?:(?=(a))x|a)\1 and ()*\1 differ. Only a backreference could tell, so the two exclude each other.
   */
  private void capturesLeak(int first) throws PcreSyntaxException {
    for (int group = first; group <= groups; group++) {
      if (referenced.get(group)) {
        throw capturesLeakUnsupported();
      }
      capturesLeak.set(group);
    }
  }

  private PcreSyntaxException capturesLeakUnsupported() {
    return in.unsupported("a backreference to a group that is repeated or inside a repeat, lookaround or atomic group");
  }

  /** A '{': a quantifier when it reads {n}, {n,} or {n,m}; otherwise a literal in PCRE2 10.42. */
  private void brace() throws PcreSyntaxException {
    int[] counts = repeatCounts(in.pos + 1);
    if (counts == null) {
      in.pos++;
      literal('{');
      return;
    }
    quantifier(counts[0], counts[1], counts[2] - in.pos);
  }

  /**
   * PCRE2's read_repeat_counts for the text after a '{' at {@code from}: null when it is not a
   * quantifier, else {min, max (-1 unbounded), index after the '}'}.
   *
   * @throws PcreSyntaxException for a quantifier whose numbers are too big or out of order
   */
  private int[] repeatCounts(int from) throws PcreSyntaxException {
    int n = in.pattern.length();
    // The syntax first: digits and at most one comma, then '}'.
    int close = from;
    boolean comma = false;
    while (true) {
      if (close >= n) {
        return null;
      }
      char c = in.pattern.charAt(close);
      if (c == '}') {
        break;
      }
      if (c == ',' && !comma) {
        comma = true;
      } else if (!PcreLexer.isDigit(c)) {
        return null;
      }
      close++;
    }
    // Then the numbers: a minimum is required ({,n} and {} are literals in 10.42).
    int i = from;
    if (!PcreLexer.isDigit(in.pattern.charAt(i))) {
      return null;
    }
    long min = 0;
    while (PcreLexer.isDigit(in.pattern.charAt(i))) {
      min = min * 10 + (in.pattern.charAt(i++) - '0');
      if (min > MAX_REPEAT_COUNT) {
        in.pos = i;
        throw in.error("number too big in {} quantifier");
      }
    }
    long max = min;
    if (in.pattern.charAt(i) == ',') {
      i++;
      if (in.pattern.charAt(i) == '}') {
        max = -1;
      } else {
        max = 0;
        while (PcreLexer.isDigit(in.pattern.charAt(i))) {
          max = max * 10 + (in.pattern.charAt(i++) - '0');
          if (max > MAX_REPEAT_COUNT) {
            in.pos = i;
            throw in.error("number too big in {} quantifier");
          }
        }
        if (max < min) {
          in.pos = i;
          throw in.error("numbers out of order in {} quantifier");
        }
      }
    }
    return new int[] {(int) min, (int) max, close + 1};
  }

  // ---- Groups and alternatives ----

  private void alternative() throws PcreSyntaxException {
    autoPossessAcrossStructure();
    endBranch();
    frame.branchLength = 0;
    frame.branchMin = 0;
    frame.branches++;
    size += 3;
    leading = frame.leading && frame.kind != Kind.LOOKAHEAD && frame.kind != Kind.LOOKBEHIND;
    out.append('|');
    in.pos++;
    repeatable = false;
    quantified = false;
  }

  /** Records the length of the branch that just ended; a lookbehind's must be fixed. */
  private void endBranch() throws PcreSyntaxException {
    int length = frame.branchLength;
    if (frame.kind == Kind.LOOKBEHIND) {
      if (length == VARIABLE) {
        throw in.error("lookbehind assertion is not fixed length");
      }
      if (length > MAX_LOOKBEHIND) {
        throw in.error("lookbehind assertion is too long");
      }
    }
    frame.groupMin = Math.min(frame.groupMin, frame.branchMin);
    if (frame.groupLength == NO_BRANCH) {
      frame.groupLength = length;
    } else if (frame.groupLength != length) {
      // Inside a lookbehind PCRE2 10.42 needs every branch of a nested group to be the same length.
      frame.groupLength = VARIABLE;
    }
  }

  private void open(String java, Kind kind, int length) throws PcreSyntaxException {
    if (kind == Kind.LOOKAHEAD || kind == Kind.LOOKBEHIND) {
      // PCRE2 does not look into an assertion for auto-possessification.
      autoPossessClear();
    } else {
      autoPossessAcrossStructure();
    }
    if (kind == Kind.LOOKAHEAD && java.equals("(?=") && leading) {
      /*
       * With no first byte of its own, PCRE2 takes one a leading lookahead asserts, and then
       * looks for a required byte (the last literal) only after it and counts both in the minimum
       * length: (?=A)x?A never matches "A".
       */
      throw in.unsupported("a lookahead at the start of the pattern or of a top-level alternative");
    }
    // A capturing group has just been numbered: it is its own first group.
    boolean capturing = java.equals("(");
    frame = new Frame(frame, kind, options, capturing ? groups : groups + 1, capturing, out.length());
    frame.leading = leading;
    frame.sizeAtOpen = size;
    depth++;
    size += 5;
    if (kind == Kind.LOOKAHEAD || kind == Kind.LOOKBEHIND) {
      leading = false;
    }
    out.append(java);
    in.pos += length;
    repeatable = false;
    quantified = false;
  }

  private void groupClose() throws PcreSyntaxException {
    if (frame.parent == null) {
      throw in.error("unmatched closing parenthesis");
    }
    autoPossessAcrossStructure();
    endBranch();
    Frame closed = frame;
    frame = closed.parent;
    depth--;
    options = closed.outerOptions;
    in.pos++;
    out.append(')');
    if (closed.kind == Kind.ATOMIC && closed.branches > 1 && sawIterator) {
      /*
       * Checking whether a repeat before it can be made possessive, PCRE2 enters each branch of
       * an atomic group and takes reaching its end as "yes", not looking at what follows the
       * group: /{0,2}(?>|a)..  is made /{0,2}+(?>|a).. and does not match "/m".
       */
      throw in.unsupported("an atomic group with alternatives after a repeat");
    }
    leadingBeforeItem = closed.leading;
    size += 3;
    long groupSize = size - closed.sizeAtOpen;
    if (closed.kind == Kind.LOOKAHEAD || closed.kind == Kind.LOOKBEHIND) {
      // An assertion can be repeated in PCRE2 (and in Java) but matches nothing. Inside a
      // lookbehind PCRE2 ignores a lookahead's quantifier but not a nested lookbehind's.
      finishItem(closed.outStart, 0, 0, Shape.OTHER, null);
      last.lookahead = closed.kind == Kind.LOOKAHEAD;
      // PCRE2 looks past negative lookaheads and lookbehinds for an asserted first code unit.
      leading = closed.leading && !(closed.kind == Kind.LOOKAHEAD && out.charAt(closed.outStart + 2) == '=');
    } else {
      finishItem(closed.outStart, closed.groupLength, closed.groupMin, Shape.GROUP, null);
      leading = false;
    }
    last.size = groupSize;
    last.copied = true;
    last.hasAlternatives = closed.branches > 1;
    last.firstGroup = closed.firstGroup;
  }

  private boolean inLookbehind() {
    for (Frame f = frame; f != null; f = f.parent) {
      if (f.kind == Kind.LOOKBEHIND) {
        return true;
      }
    }
    return false;
  }

  private void groupOpen() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos + 1 < n && in.pattern.charAt(in.pos + 1) == '*') {
      throw in.unsupported("(*VERB), (*OPTION) and (*alpha_assertion:...) items");
    }
    if (in.pos + 1 >= n || in.pattern.charAt(in.pos + 1) != '?') {
      capturingGroup();
      open("(", Kind.GROUP, 1);
      return;
    }
    if (in.pos + 2 >= n) {
      throw in.error("missing closing parenthesis");
    }
    char k = in.pattern.charAt(in.pos + 2);
    char next = in.pos + 3 < n ? in.pattern.charAt(in.pos + 3) : 0;
    switch (k) {
      case '#' -> comment();
      case ':' -> open("(?:", Kind.GROUP, 3);
      case '>' -> open("(?>", Kind.ATOMIC, 3);
      case '=', '!' -> open("(?" + k, Kind.LOOKAHEAD, 3);
      case '<' -> {
        if (next == '=' || next == '!') {
          open("(?<" + next, Kind.LOOKBEHIND, 4);
        } else if (next == '*') {
          throw in.unsupported("non-atomic assertions");
        } else {
          in.pos += 3;
          namedGroup('>');
        }
      }
      case '\'' -> {
        in.pos += 3;
        namedGroup('\'');
      }
      case 'P' -> {
        if (next == '<') {
          in.pos += 4;
          namedGroup('>');
        } else if (next == '=') {
          in.pos += 4;
          namedReference(')');
        } else if (next == '>') {
          throw in.unsupported("subroutine calls");
        } else {
          throw in.error("unrecognized character after (?P");
        }
      }
      case '*' -> throw in.unsupported("non-atomic assertions");
      case '|' -> throw in.unsupported("branch reset groups");
      case '(' -> throw in.unsupported("conditional groups");
      case 'C' -> throw in.unsupported("callouts");
      case 'R', '&' -> throw in.unsupported("recursion and subroutine calls");
      default -> {
        if (PcreLexer.isDigit(k) || ((k == '-' || k == '+') && PcreLexer.isDigit(next))) {
          throw in.unsupported("recursion and subroutine calls");
        }
        optionSetting();
      }
    }
  }

  /** Numbers a capturing group that is about to open. */
  private void capturingGroup() throws PcreSyntaxException {
    groups++;
    for (Frame f = frame; f != null; f = f.parent) {
      if (f.kind.keepsCaptures()) {
        capturesLeak(groups);
        return;
      }
    }
  }

  /** {@code (?#...)}: nothing at all, not even for a following quantifier. */
  private void comment() throws PcreSyntaxException {
    int close = in.pattern.indexOf(')', in.pos + 3);
    if (close < 0) {
      in.pos = in.pattern.length();
      throw in.error("missing ) after (?# comment");
    }
    in.pos = close + 1;
  }

  /** A capturing group with a name; PCRE2 numbers it like any other and Java needs no name. */
  private void namedGroup(char terminator) throws PcreSyntaxException {
    String name = in.groupName(terminator);
    capturingGroup();
    if (!namesComplete && names.putIfAbsent(name, groups) != null) {
      throw in.error("two named subpatterns have the same name (PCRE2_DUPNAMES not set)");
    }
    open("(", Kind.GROUP, 0);
  }


  /**
   * {@code (?i)}, {@code (?-s:...)}, {@code (?^)}: i, m and s are tracked; x, n, J and U cannot be
   * expressed and are refused when set (unsetting them changes nothing, they are never on).
   */
  private void optionSetting() throws PcreSyntaxException {
    int n = in.pattern.length();
    int i = in.pos + 2;
    boolean caseless = options.caseless();
    boolean multiline = options.multiline();
    boolean dotall = options.dotall();
    boolean hyphenAllowed = true;
    boolean unset = false;
    if (i < n && in.pattern.charAt(i) == '^') {
      // (?^) unsets i, m, n, s and x, and no '-' may follow.
      caseless = false;
      multiline = false;
      dotall = false;
      hyphenAllowed = false;
      i++;
    }
    while (i < n && in.pattern.charAt(i) != ')' && in.pattern.charAt(i) != ':') {
      char f = in.pattern.charAt(i);
      switch (f) {
        case '-' -> {
          if (!hyphenAllowed) {
            in.pos = i;
            throw in.error("invalid hyphen in option setting");
          }
          unset = true;
          hyphenAllowed = false;
        }
        case 'i' -> caseless = !unset;
        case 'm' -> multiline = !unset;
        case 's' -> dotall = !unset;
        case 'x', 'n', 'J', 'U' -> {
          if (!unset) {
            in.pos = i;
            throw in.unsupported("the (?" + f + ") option");
          }
        }
        default -> {
          in.pos = i;
          throw in.error("unrecognized character after (? or (?-");
        }
      }
      i++;
    }
    if (i >= n) {
      in.pos = i;
      throw in.error("missing closing parenthesis");
    }
    Options changed = new Options(caseless, multiline, dotall);
    if (in.pattern.charAt(i) == ':') {
      open("(?:", Kind.GROUP, i + 1 - in.pos);
      options = changed;
    } else {
      // Lasts to the end of the enclosing group. Not an item: a quantifier after it is an error.
      options = changed;
      in.pos = i + 1;
      repeatable = false;
      quantified = false;
    }
  }

  // ---- Backreferences ----

  private void backReference(int group) throws PcreSyntaxException {
    if (inLookbehind()) {
      throw in.unsupported("a backreference inside a lookbehind");
    }
    if (group > groups && group >= 10) {
      // Java reads \12 as \1 and '2' until group 12 has opened, and \k<name> needs the name defined.
      throw in.unsupported("a reference to group 10 or above before the group opens");
    }
    if (capturesLeak.get(group)) {
      throw capturesLeakUnsupported();
    }
    referenced.set(group);
    for (Frame f = frame; f != null; f = f.parent) {
      if (f.group > 0) {
        referencesInside.computeIfAbsent(f.group, g -> new BitSet()).set(group);
      }
    }
    highestReference = Math.max(highestReference, group);
    // Grouped so that a digit after it is not read as part of the number.
    item((options.caseless() ? "(?i:\\" : "(?:\\") + group + ")", VARIABLE, 0);
    // PCRE2 does not look past a backreference for auto-possessification.
    autoPossessClear();
  }

  /** {@code \k<name>}, {@code (?P=name)}, {@code \g{name}}: {@code pos} is just after the opener. */
  private void namedReference(char terminator) throws PcreSyntaxException {
    String name = in.groupName(terminator);
    Integer group = names.get(name);
    if (group == null) {
      if (namesComplete) {
        throw in.error("reference to non-existent subpattern");
      }
      // First pass: the group may come later; the second pass decides.
      item("", 0, 0);
      return;
    }
    backReference(group);
  }

  /**
   * Outside a class, {@code \N} with N a number: a backreference when N < 10, when it starts with
   * 8 or 9, or when at least N groups have opened before it; otherwise up to three octal digits
   * (or, for 8 and 9, the digit itself). Like PCRE2's read_number, a number above
   * {@link #DIGITS_LIMIT} is no number at all, and one that is a reference but above 65535 is an error.
   */
  private void numberedEscape(char first) throws PcreSyntaxException {
    int n = in.pattern.length();
    int start = in.pos - 1;
    int end = start;
    long number = 0;
    while (end < n && PcreLexer.isDigit(in.pattern.charAt(end)) && number <= DIGITS_LIMIT) {
      number = number * 10 + (in.pattern.charAt(end) - '0');
      end++;
    }
    boolean isNumber = number <= DIGITS_LIMIT;
    if (isNumber && (number < 10 || first == '8' || first == '9' || number <= groups)) {
      in.pos = end;
      if (number > MAX_GROUP_NUMBER) {
        throw in.error("subpattern number is too big");
      }
      backReference((int) number);
      return;
    }
    if (first == '8' || first == '9') {
      literal(first);
      return;
    }
    in.pos = start;
    literal(in.octal(3));
  }

  /** {@code \g}: a number (absolute or relative), a braced name, or a subroutine call. */
  private void gEscape() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos >= n) {
      throw in.error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
    }
    char open = in.pattern.charAt(in.pos);
    if (open == '<' || open == '\'') {
      throw in.unsupported("subroutine calls");
    }
    boolean braced = open == '{';
    int save = in.pos;
    if (braced) {
      in.pos++;
    }
    Integer group = signedNumber();
    if (group == null) {
      if (braced) {
        // Not a number: \g{name} is \k{name}.
        in.pos = save + 1;
        namedReference('}');
        return;
      }
      throw in.error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
    }
    if (braced) {
      if (in.pos >= n || in.pattern.charAt(in.pos) != '}') {
        throw in.error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
      }
      in.pos++;
    }
    if (group <= 0) {
      throw in.error("reference to non-existent subpattern");
    }
    backReference(group);
  }

  /**
   * PCRE2's read_number with signs allowed, relative to the groups opened so far: the group
   * number, or null when there is no number at {@code pos}.
   */
  private Integer signedNumber() throws PcreSyntaxException {
    int n = in.pattern.length();
    int sign = 0;
    if (in.pos < n && (in.pattern.charAt(in.pos) == '+' || in.pattern.charAt(in.pos) == '-')) {
      sign = in.pattern.charAt(in.pos) == '+' ? 1 : -1;
      in.pos++;
    }
    if (in.pos >= n || !PcreLexer.isDigit(in.pattern.charAt(in.pos))) {
      return null;
    }
    long value = 0;
    long max = sign > 0 ? MAX_GROUP_NUMBER - groups : MAX_GROUP_NUMBER;
    while (in.pos < n && PcreLexer.isDigit(in.pattern.charAt(in.pos))) {
      value = value * 10 + (in.pattern.charAt(in.pos++) - '0');
      if (value > max) {
        throw in.error("subpattern number is too big");
      }
    }
    if (sign != 0 && value == 0) {
      throw in.error("a relative value of zero is not allowed");
    }
    if (sign > 0) {
      return (int) value + groups;
    }
    if (sign < 0) {
      if (value > groups) {
        throw in.error("reference to non-existent subpattern");
      }
      return groups + 1 - (int) value;
    }
    return (int) value;
  }

  private void kEscape() throws PcreSyntaxException {
    char open = in.pos < in.pattern.length() ? in.pattern.charAt(in.pos) : 0;
    char close = switch (open) {
      case '<' -> '>';
      case '\'' -> '\'';
      case '{' -> '}';
      default -> throw in.error("\\k is not followed by a braced, angle-bracketed, or quoted name");
    };
    in.pos++;
    namedReference(close);
  }

  // ---- Escapes ----

  /** PCRE2's \b and \B: word bytes are ASCII letters, digits and '_' (Java 17's \b is Unicode). */
  private static final String WORD_BOUNDARY =
      "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";
  private static final String NOT_WORD_BOUNDARY =
      "(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))";

  private void escape() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos + 1 >= n) {
      in.pos = n;
      throw in.error("\\ at end of pattern");
    }
    char c = in.pattern.charAt(in.pos + 1);
    in.pos += 2;
    switch (c) {
      case 'd', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V' -> oneByte(javaSet(escapeSet(c)), escapeType(c));
      case 'p', 'P' -> {
        PcreItemType property = in.property(c == 'P');
        oneByte(javaSet(property.bytes), property);
      }
      case 'b' -> assertion(WORD_BOUNDARY, true);
      case 'B' -> assertion(NOT_WORD_BOUNDARY, true);
      case 'A' -> assertion("\\A", false);
      case 'z' -> assertion("\\z", false);
      case 'Z' -> assertion("(?=\\n?\\z)", false);
      // pcre2_match starts at offset 0, where Java's first find() puts \G too.
      case 'G' -> assertion("\\G", false);
      case 'K' -> throw in.unsupported("\\K");
      // PCRE2's \R and \X are atomic; on bytes \X is CR LF or any one byte.
      case 'R' -> item("(?>\\r\\n|[\\n\\x{b}\\f\\r\\x{85}])", VARIABLE, 1, Shape.TYPE, PcreItemType.of(PcreItemType.ANYNL));
      case 'X' -> item("(?>\\r\\n|.)", VARIABLE, 1, Shape.TYPE, PcreItemType.of(PcreItemType.EXTUNI));
      case 'N' -> notNewline();
      case 'C' -> oneByte(".", PcreItemType.of(PcreItemType.ANYBYTE));
      case 'Q' -> quoted();
      case 'E' -> {
        // A \E without \Q is ignored, as nothing.
      }
      case 'g' -> gEscape();
      case 'k' -> kEscape();
      case 'u', 'U', 'L', 'l' -> throw in.error("PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u");
      case '1', '2', '3', '4', '5', '6', '7', '8', '9' -> numberedEscape(c);
      default -> literal(in.characterEscape(c, false));
    }
  }

  /** {@code \N}: not a newline, unless a brace follows that is not a quantifier. */
  private void notNewline() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos < n && in.pattern.charAt(in.pos) == '{') {
      if (in.pos + 2 < n && in.pattern.charAt(in.pos + 1) == 'U' && in.pattern.charAt(in.pos + 2) == '+') {
        throw in.error("\\N{U+dddd} is supported only in Unicode (UTF) mode");
      }
      if (repeatCounts(in.pos + 1) == null) {
        throw in.error("PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u");
      }
    }
    oneByte("[^\\n]", PcreItemType.of(PcreItemType.ANY));
  }

  /** The PCRE2 type of a class escape such as \d or \H. */
  private static PcreItemType escapeType(char escape) {
    int type = switch (escape) {
      case 'D' -> PcreItemType.NOT_DIGIT;
      case 'd' -> PcreItemType.DIGIT;
      case 'S' -> PcreItemType.NOT_WHITESPACE;
      case 's' -> PcreItemType.WHITESPACE;
      case 'W' -> PcreItemType.NOT_WORDCHAR;
      case 'w' -> PcreItemType.WORDCHAR;
      case 'H' -> PcreItemType.NOT_HSPACE;
      case 'h' -> PcreItemType.HSPACE;
      case 'V' -> PcreItemType.NOT_VSPACE;
      default -> PcreItemType.VSPACE;
    };
    return PcreItemType.of(type);
  }


  /** {@code \Q...\E} outside a class: literals; an empty one is nothing at all. */
  private void quoted() {
    int end = in.pattern.indexOf("\\E", in.pos);
    int stop = end < 0 ? in.pattern.length() : end;
    while (in.pos < stop) {
      literal(in.pattern.charAt(in.pos++));
    }
    in.pos = end < 0 ? in.pattern.length() : end + 2;
  }






  // ---- Character classes ----

  /**
   * A character class, read as PCRE2's parse_regex reads it and emitted as an explicit set of
   * bytes. Also PCRE2's {@code [[:<:]]} and {@code [[:>:]]} word boundaries.
   */
  private void characterClass() throws PcreSyntaxException {
    int n = in.pattern.length();
    int start = in.pos;
    in.pos++;
    if (in.pattern.startsWith("[:<:]]", in.pos) || in.pattern.startsWith("[:>:]]", in.pos)) {
      // PCRE2 reads these as \b(?=\w) and \b(?<=\w): a quantifier after them repeats the assertion.
      boolean wordStart = in.pattern.charAt(in.pos + 2) == '<';
      in.pos += 6;
      assertion(WORD_BOUNDARY, true);
      if (wordStart) {
        lookahead("(?=[A-Za-z0-9_])");
      } else {
        item("(?<=[A-Za-z0-9_])", 0, 0);
      }
      last.copied = true;
      return;
    }
    if (in.pos < n && PcreLexer.isPosixOpener(in.pattern.charAt(in.pos)) && in.posixEnd(in.pos) >= 0) {
      throw in.error("POSIX named classes are supported only within a class");
    }
    // A leading ^ negates; \E and \Q\E around it are skipped, so a ] after them is still first.
    boolean negated = false;
    char c;
    while (true) {
      if (in.pos >= n) {
        in.pos = start;
        throw in.error("missing terminating ] for character class");
      }
      c = in.pattern.charAt(in.pos++);
      if (c == '\\' && in.pos < n && in.pattern.charAt(in.pos) == 'E') {
        in.pos++;
      } else if (c == '\\' && in.pattern.startsWith("Q\\E", in.pos)) {
        in.pos += 3;
      } else if (c == '^' && !negated) {
        negated = true;
      } else {
        break;
      }
    }
    BitSet set = in.classBody(c, start);
    if (negated) {
      set.flip(0, 256);
    }
    oneByte(javaSet(set), null);
    // A 32-byte bitmap, or with properties an XCLASS listing them.
    size += 40 + 3L * (in.pos - start) - last.size;
    last.size = 40 + 3L * (in.pos - start);
  }







  // ---- Byte sets ----



  // ---- Errors and character tests ----





}
