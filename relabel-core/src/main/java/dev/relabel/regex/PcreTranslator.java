package dev.relabel.regex;

import static dev.relabel.regex.PcreByteSets.escapeSet;
import static dev.relabel.regex.PcreByteSets.javaSet;
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
 * <p>It runs in stages, one class each: {@link PcreLexer} reads escapes, names and class members;
 * {@link PcreGroups} checks the structure (groups, options, lookbehind lengths, nesting);
 * {@link PcreRepeats} reads quantifiers and PCRE2's limits on them and imitates its
 * auto-possessification; {@link PcreWriter} holds the state and writes the Java; this class
 * drives them and handles escapes, references and classes. PcreTranslatorTest pins each stage's
 * output without libpcre2.
 *
 * <p>The rest is refused with a {@link PcreSyntaxException} saying "not supported by relabel"
 * rather than approximated, unless PCRE2 rejects the pattern for something else ({@link
 * PcreReadOn} reads on to find out). What Java cannot express: recursion and subroutine calls,
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
final class PcreTranslator extends PcreGroups {
  private PcreTranslator(String pattern, Map<String, Integer> names, boolean namesComplete) {
    super(pattern, names, namesComplete);
  }

  /** Translates a whole PCRE2 pattern; see the class comment. */
  static String translate(String pattern) throws PcreSyntaxException {
    try {
      return translated(pattern, false).out.toString();
    } catch (PcreSyntaxException e) {
      // Something relabel cannot run: unless PCRE2 rejects the pattern for something else.
      throw e.unsupported() ? PcreReadOn.verdict(pattern, e) : e;
    }
  }

  /** Both passes over {@code pattern}. */
  static PcreTranslator translated(String pattern, boolean readingOn) throws PcreSyntaxException {
    return translated(pattern, readingOn, Map.of());
  }

  /** Both passes; {@code readingOn} and {@code branchLimits}: see {@link PcreReadOn}. */
  static PcreTranslator translated(String pattern, boolean readingOn, Map<Integer, Integer> branchLimits)
      throws PcreSyntaxException {
    // PCRE2 allows a reference to a named group before the group: collect the names first. A
    // pattern that can neither name a group nor refer to one by name needs no first pass (most of
    // a policy's patterns: the pass doubled the time of a policy's load).
    Map<String, Integer> names = new HashMap<>();
    if (pattern.contains("(?") || pattern.contains("\\k") || pattern.contains("\\g")) {
      PcreTranslator first = new PcreTranslator(pattern, names, false);
      first.readingOn = readingOn;
      first.branchLimits = branchLimits;
      first.run();
    }
    PcreTranslator translator = new PcreTranslator(pattern, names, true);
    translator.readingOn = readingOn;
    translator.branchLimits = branchLimits;
    translator.run();
    return translator;
  }

  void run() throws PcreSyntaxException {
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
        refuse("a backreference inside the group it names (directly or through other references)");
      }
    }
  }

  /**
   * Whether the references inside {@code from} lead, through the groups they name, to
   * {@code target}. PCRE2 computes a pattern's minimum length and never tries a start position
   * with fewer bytes left. Meeting such a cycle it ignores the branch (unless it is the first),
   * and (a|\1?). gets a minimum of 2 though it matches "{".
   */
  boolean referencesReach(int from, int target) {
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

  void backReference(int group) throws PcreSyntaxException {
    if (inLookbehind()) {
      // not read on: the lookbehind's length would then be misjudged
      throw in.unsupported("a backreference inside a lookbehind");
    }
    if (group > groups && group >= 10) {
      // Java reads \12 as \1 and '2' until group 12 has opened, and \k<name> needs the name defined.
      refuse("a reference to group 10 or above before the group opens");
    }
    if (capturesLeak.get(group)) {
      refuseCapturesLeak();
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
  void namedReference(char terminator) throws PcreSyntaxException {
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
  void numberedEscape(char first) throws PcreSyntaxException {
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

  /**
   * The refusal of the subroutine call {@code \g<...>} or {@code \g'...'}, {@code pos} at its
   * opener; the call can be read past when it names a group by number or name.
   */
  private PcreSyntaxException subroutineCall(char terminator) {
    int close = in.pattern.indexOf(terminator, in.pos + 1);
    String target = close < 0 ? "" : in.pattern.substring(in.pos + 1, close);
    if (!target.matches("[+-]?[0-9]{1,9}|[A-Za-z_][A-Za-z0-9_]{0,31}")) {
      return in.unsupported("a subroutine call");
    }
    char first = target.charAt(0);
    Object reference = first == '+' ? groups + Integer.parseInt(target.substring(1))
        : first == '-' ? groups - Integer.parseInt(target.substring(1)) + 1
        : PcreLexer.isDigit(first) ? Integer.valueOf(target) : target;
    return in.unsupported("a subroutine call", in.pos - 2, close + 1, "(?:)", reference);
  }

  /** {@code \g}: a number (absolute or relative), a braced name, or a subroutine call. */
  void gEscape() throws PcreSyntaxException {
    int n = in.pattern.length();
    if (in.pos >= n) {
      throw in.error("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number");
    }
    char open = in.pattern.charAt(in.pos);
    if (open == '<' || open == '\'') {
      throw subroutineCall(open == '<' ? '>' : '\'');
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
  Integer signedNumber() throws PcreSyntaxException {
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

  void kEscape() throws PcreSyntaxException {
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
  static final String WORD_BOUNDARY =
      "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";
  static final String NOT_WORD_BOUNDARY =
      "(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))";

  void escape() throws PcreSyntaxException {
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
      case 'K' -> throw in.unsupported("\\K", in.pos - 2, in.pos, "(?)", null); // PCRE2 repeats no \K
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
  void notNewline() throws PcreSyntaxException {
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
  static PcreItemType escapeType(char escape) {
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
  void quoted() {
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
  void characterClass() throws PcreSyntaxException {
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
