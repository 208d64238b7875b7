package dev.relabel.regex;

import java.util.Map;

/**
 * Quantifiers, as PCRE2 reads and limits them: {@code {n,m}} and its literal-brace fallback, lazy
 * and possessive modifiers, PCRE2's size bound on repeated groups, the written-out repeat of a
 * group that can match empty, and the imitation of PCRE2 10.42's auto-possessification.
 */
abstract class PcreRepeats extends PcreWriter {
  /** Whether a lookbehind is open ({@link PcreGroups}). */
  abstract boolean inLookbehind();

  PcreRepeats(String pattern, Map<String, Integer> names, boolean namesComplete) {
    super(pattern, names, namesComplete);
  }

  /** A quantifier of {@code length} pattern chars at {@code pos}; {@code max} -1 is unbounded. */
  void quantifier(int min, int max, int length) throws PcreSyntaxException {
    if (!repeatable) {
      throw in.error("quantifier does not follow a repeatable item");
    }
    if (max == 0 && last.hasAlternatives) {
      /*
       * PCRE2 keeps a group repeated {0} behind OP_SKIPZERO, and its first_significant_code()
       * skips only the group's first branch: the start-of-match analysis then reads the second
       * branch as what follows. (?:x|^){0}a is taken as anchored and does not match "ba".
       */
      refuse("a group with alternatives repeated {0}");
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
  void repeatSize(int min, int max) throws PcreSyntaxException {
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

  void checkSize() throws PcreSyntaxException {
    if (size + 8 > MAX_PATTERN_SIZE) {
      refuse("a pattern that may be too large for PCRE2");
    }
  }

  /** A '?' or '+' just after a quantifier: lazy or possessive. */
  void modifier(char c) throws PcreSyntaxException {
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
  void expand(boolean lazy) {
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
  String expandedOriginal;

  /** Java text with its capturing groups made non-capturing: every '(' not before '?' captures. */
  static String nonCapturing(String java) {
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
  void autoPossessBefore(PcreItemType type) {
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
  void autoPossessQuantifier(int min) throws PcreSyntaxException {
    PcreItemType madeBy = possessMadeBy;
    PcreItemType through = possessLooksThrough;
    possessMadeBy = null;
    possessLooksThrough = null;
    if (min == 0 && (madeBy != null || (through != null && through.partnerIn(in.pattern.substring(in.pos))))) {
      refuseAutoPossess();
    }
  }

  /** A group opens or closes, or a branch ends, just after such a repeat: PCRE2 looks on. */
  void autoPossessAcrossStructure() throws PcreSyntaxException {
    PcreItemType repeated = possessCandidate;
    autoPossessClear();
    if (repeated != null && repeated.partnerIn(in.pattern.substring(in.pos))) {
      refuseAutoPossess();
    }
  }

  /** Something PCRE2 stops at (an assertion, a backreference, the end): nothing to emulate. */
  void autoPossessClear() {
    possessCandidate = null;
    possessMadeBy = null;
    possessLooksThrough = null;
  }

  void refuseAutoPossess() throws PcreSyntaxException {
    refuse("a repeat that PCRE2 may wrongly make possessive");
  }

  /**
   * Capturing groups from {@code first} on (to the last opened) are repeated, or inside a repeat,
   * lookaround or atomic group. Java keeps what such a group captured when it backtracks out of
   * the construct, or leaves it unset after an empty iteration, where PCRE2 restores or sets it:
   * (?:(?=(a))x|a)\1 and ()*\1 differ. Only a backreference could tell, so the two exclude each other.
   */
  void capturesLeak(int first) throws PcreSyntaxException {
    for (int group = first; group <= groups; group++) {
      if (referenced.get(group)) {
        refuseCapturesLeak();
      }
      capturesLeak.set(group);
    }
  }

  void refuseCapturesLeak() throws PcreSyntaxException {
    refuse("a backreference to a group that is repeated or inside a repeat, lookaround or atomic group");
  }

  /** A '{': a quantifier when it reads {n}, {n,} or {n,m}; otherwise a literal in PCRE2 10.42. */
  void brace() throws PcreSyntaxException {
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
  int[] repeatCounts(int from) throws PcreSyntaxException {
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
}
