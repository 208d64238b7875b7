package dev.relabel.match;

import dev.relabel.regex.LiteralHead;
import dev.relabel.regex.PcrePattern;
import dev.relabel.regex.PcreSyntaxException;
import dev.relabel.policy.FileType;
import dev.relabel.policy.Spec;

/**
 * One spec, ready to test against keys; {@code rank} is its place in libselinux's search order.
 *
 * <p>Most policy lines are a literal head followed by one of a few tails ({@code (/.*)?},
 * {@code .*}, ...). With PCRE2_DOTALL and the "$" that also accepts one final newline, those are
 * decided by string comparisons alone, and the expression never runs. Every other spec runs its
 * expression, but only after cheap necessary conditions (literal runs it must contain, the
 * literal it must end with) have held.
 */
final class CompiledSpec {
  /** How a spec is decided, given that the key starts with its literal head. */
  enum Shape {
    /** {@code HEAD}: the rest of the key is empty or one "\n". */
    EXACT,
    /** {@code HEAD(/.*)?}: the rest is empty, one "\n", or starts with '/'. */
    SUBTREE,
    /** {@code HEAD.*}: any rest. */
    ANY_REST,
    /** {@code HEAD.+}: a non-empty rest. */
    SOME_REST,
    /** {@code HEAD/.*}: a rest that starts with '/'. */
    SLASH_REST,
    /** Anything else: run the expression. */
    EXPRESSION
  }

  final int rank;
  final Spec spec;
  final FileType fileType;
  /** Every key this spec matches starts with this: what the prefix index is built from. */
  final String requiredPrefix;
  /** {@code "^" + REGEX + "$"} as the loader compiled it (or translated it, for a compiled policy); null. */
  private final PcrePattern compiled;
  /**
   * The rest, worked out when a lookup first reaches this spec: a start builds the index of
   * every spec, but a short run tries a few dozen, and working all of them out was most of a
   * start's matcher build. Racy but idempotent, as String's hash: two threads may both prepare
   * it, either result is equal, and a {@link Prepared} has only final fields, so a thread that
   * sees the reference sees them set (JLS 17.5); the field is not volatile, so the lookup path
   * pays neither a lock nor a fence.
   */
  private Prepared prepared;

  /** How the spec is decided, made on first use. */
  private static final class Prepared {
    /** What a lookup this spec wins answers. */
    final Label label;
    final Shape shape;
    /** The unescaped literal head, for every shape but EXPRESSION. */
    final String head;
    /**
     * The spec's stem plus '/', when the required prefix does not already imply it (a stem that
     * holds a backslash is compared as written, as libselinux compares it); null otherwise.
     */
    final String separateStem;
    /** Literal runs every key this spec matches holds, in order (EXPRESSION only). */
    final String[] requiredRuns;
    /** Every key this spec matches ends with this, or with this and one "\n" (EXPRESSION only). */
    final String requiredSuffix;
    /** For each required run, how much of it ends with its last '/' (0: it has none). */
    final int[] runHeads;
    /**
     * For each required run, what follows its last '/' (all of it when it has none): what a name
     * starts with when the run straddles its directory's key.
     */
    final String[] runRests;
    /** The same for the required suffix. */
    final int suffixHead;
    /** The index of the last required run that holds a '/'; -1 when none does. */
    final int lastRunWithSlash;
    /**
     * 1 when the first required run is part of the required prefix, which every key tried starts
     * with (so it is found at 0 without a search); 0 otherwise.
     */
    final int runsAtStart;
    /** The compiled expression, for EXPRESSION specs only: shapes never need it to answer. */
    final PcrePattern pattern;
    /**
     * For an expression HEAD(.*&#47;)?NAME TAIL (HEAD and NAME literal, TAIL one of the shapes'
     * tails, as in /usr/(.*&#47;)?man/.* and /usr/(.*&#47;)?bin(/.*)?), its HEAD; null for any
     * other. Such a spec is decided by comparisons: a walk of /usr ran the expression of the man
     * pages' spec on each of 24,000 pages, ~1.7 us each, most of a walk's regex time.
     */
    final String dirsHead;
    /** Its NAME, which follows HEAD directly or a '/'. */
    final String dirsName;
    /** Its TAIL, as the shape that has that tail. */
    final Shape dirsTail;

    Prepared(Spec spec, String requiredPrefix, PcrePattern compiled) {
      this.label = Label.of(spec);
      String regex = spec.regex();
      String stem = SpecShape.stem(regex);
      this.separateStem = stem != null && !requiredPrefix.startsWith(stem + "/") ? stem + "/" : null;
      LiteralHead parsed = LiteralHead.of(regex);
      Shape found = parsed == null ? Shape.EXPRESSION : withTail(parsed.tail());
      this.shape = found;
      LiteralHead dirs = found == Shape.EXPRESSION && parsed != null && parsed.tail().startsWith(ANY_DIRS)
          ? LiteralHead.of(parsed.tail().substring(ANY_DIRS.length()))
          : null;
      boolean decidedByName = dirs != null && !dirs.literal().isEmpty() && withTail(dirs.tail()) != Shape.EXPRESSION;
      this.dirsHead = decidedByName ? parsed.literal() : null;
      this.dirsName = decidedByName ? dirs.literal() : null;
      this.dirsTail = decidedByName ? withTail(dirs.tail()) : null;
      this.head = found == Shape.EXPRESSION ? null : parsed.literal();
      if (found == Shape.EXPRESSION) {
        SpecShape.Literals literals = SpecShape.requiredLiterals(regex);
        this.requiredRuns = literals.runs().toArray(new String[0]);
        this.requiredSuffix = literals.suffix();
      } else {
        this.requiredRuns = new String[0];
        this.requiredSuffix = "";
      }
      this.runHeads = new int[requiredRuns.length];
      this.runRests = new String[requiredRuns.length];
      int withSlash = -1;
      for (int i = 0; i < requiredRuns.length; i++) {
        runHeads[i] = requiredRuns[i].lastIndexOf('/') + 1;
        runRests[i] = requiredRuns[i].substring(runHeads[i]);
        withSlash = runHeads[i] > 0 ? i : withSlash;
      }
      this.lastRunWithSlash = withSlash;
      this.suffixHead = requiredSuffix.lastIndexOf('/') + 1;
      this.runsAtStart = requiredRuns.length > 0 && requiredPrefix.startsWith(requiredRuns[0]) ? 1 : 0;
      // Shapes are decided by string comparisons; compiling their expressions too would only slow
      // the start of every run.
      this.pattern = found != Shape.EXPRESSION ? null : compiled != null ? compiled : compile(spec);
    }
  }

  /** Any run of directories, or none: (.*&#47;)? */
  private static final String ANY_DIRS = "(.*/)?";

  /** The shape whose tail, after a literal head, is {@code tail}. */
  private static Shape withTail(String tail) {
    return switch (tail) {
      case "" -> Shape.EXACT;
      case "(/.*)?" -> Shape.SUBTREE;
      case ".*" -> Shape.ANY_REST;
      case ".+" -> Shape.SOME_REST;
      case "/.*" -> Shape.SLASH_REST;
      default -> Shape.EXPRESSION;
    };
  }

  /** The expression of any shape, compiled on first use by the tests that hold shapes to it. */
  private volatile PcrePattern reference;

  /**
   * @param compiled {@code "^" + REGEX + "$"} as the loader compiled it, or null (then it is
   *     compiled here when the spec's shape needs it)
   */
  CompiledSpec(int rank, Spec spec, PcrePattern compiled) {
    this.rank = rank;
    this.spec = spec;
    this.fileType = spec.fileType();
    this.requiredPrefix = SpecShape.requiredPrefix(spec.regex());
    this.compiled = compiled;
  }

  private Prepared prepared() {
    Prepared ready = prepared;
    if (ready == null) {
      ready = new Prepared(spec, requiredPrefix, compiled);
      prepared = ready;
    }
    return ready;
  }

  /** What a lookup this spec wins answers. */
  Label label() {
    return prepared().label;
  }

  private static PcrePattern compile(Spec spec) {
    try {
      return PcrePattern.compile("^" + spec.regex() + "$");
    } catch (PcreSyntaxException e) {
      // The loader has already compiled every expression; a Policy built by hand may not have.
      throw new IllegalArgumentException(
          spec.location() + ": invalid regex " + spec.regex() + ": " + e.getMessage(), e);
    }
  }

  /** The expression, whatever the shape; compiled once on first use (tests only). */
  private PcrePattern reference() {
    PcrePattern pattern = prepared().pattern;
    PcrePattern expression = pattern != null ? pattern : reference;
    if (expression == null) {
      expression = compile(spec);
      reference = expression;
    }
    return expression;
  }

  Shape shape() {
    return prepared().shape;
  }

  /** Whether the spec matches {@code key}, which starts with {@link #requiredPrefix}. */
  boolean matches(String key) {
    Prepared p = prepared();
    if (p.separateStem != null && !key.startsWith(p.separateStem)) {
      return false;
    }
    if (p.shape == Shape.EXPRESSION) {
      return hasRequiredLiterals(p, key) && expressionMatches(p, key);
    }
    return key.startsWith(p.head) && tailMatches(p.shape, key, p.head.length(), false);
  }

  /** What the expression answers, for a key that holds its required literals. */
  private static boolean expressionMatches(Prepared p, String key) {
    if (p.dirsHead == null) {
      return p.pattern.find(key);
    }
    // HEAD, then nothing or anything that ends with '/', then NAME, then TAIL: try each NAME.
    if (!key.startsWith(p.dirsHead)) {
      return false;
    }
    int start = p.dirsHead.length();
    for (int at = key.indexOf(p.dirsName, start); at >= 0; at = key.indexOf(p.dirsName, at + 1)) {
      if ((at == start || key.charAt(at - 1) == '/') && tailMatches(p.dirsTail, key, at + p.dirsName.length(), false)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the tail of {@code shape} matches {@code key} from {@code at} (where its head ended),
   * or with {@code orPartially} could match it once longer ({@code HEAD.+} and {@code HEAD/.*} on
   * the head alone need one more character).
   */
  private static boolean tailMatches(Shape shape, String key, int at, boolean orPartially) {
    int rest = key.length() - at;
    char next = rest > 0 ? key.charAt(at) : 0;
    return switch (shape) {
      case EXACT -> rest == 0 || (rest == 1 && next == '\n');
      case SUBTREE -> rest == 0 || next == '/' || (rest == 1 && next == '\n');
      case ANY_REST -> true;
      case SOME_REST -> rest > 0 || orPartially;
      case SLASH_REST -> rest > 0 ? next == '/' : orPartially;
      case EXPRESSION -> throw new AssertionError();
    };
  }

  /** What the expression itself answers; the shortcuts must always agree with it. */
  boolean matchesByExpression(String key) {
    String separateStem = prepared().separateStem;
    return (separateStem == null || key.startsWith(separateStem)) && reference().find(key);
  }

  /** A cheap necessary condition, checked before running the expression. */
  private static boolean hasRequiredLiterals(Prepared p, String key) {
    return hasRequiredSuffix(p, key) && hasRuns(p.requiredRuns, p.runsAtStart, key, searchStart(p));
  }

  /** Where a key's search for its required runs starts: after the first one, when the prefix holds it. */
  private static int searchStart(Prepared p) {
    return p.runsAtStart == 0 ? 0 : p.requiredRuns[0].length();
  }

  private static boolean hasRequiredSuffix(Prepared p, String key) {
    String suffix = p.requiredSuffix;
    if (!suffix.isEmpty() && !key.endsWith(suffix)) {
      int end = key.length() - 1;
      return end >= suffix.length() && key.charAt(end) == '\n' && key.startsWith(suffix, end - suffix.length());
    }
    return true;
  }

  /** Whether {@code runs[first..]} occur in {@code key} in order, without overlapping, from {@code from}. */
  private static boolean hasRuns(String[] runs, int first, String key, int from) {
    for (int i = first; i < runs.length; i++) {
      int at = key.indexOf(runs[i], from);
      if (at < 0) {
        return false;
      }
      from = at + runs[i].length();
    }
    return true;
  }

  /** {@link #childProgress}'s answer when no child of the directory can match. */
  static final int NO_CHILD = -1;
  /** In {@link #childProgress}'s answer: the run it names begins in the directory's key. */
  private static final int STRADDLES = 1 << 30;

  /** {@link #runsFound}'s {@code before} for a key of which nothing has been searched yet. */
  static final long NOT_SEARCHED = -1;

  /**
   * How far {@code childPrefix} (a directory's key and '/') holds this spec's required runs,
   * found leftmost first as {@link #hasRequiredLiterals} finds them: the index of the first run
   * not found in it (high 32 bits) and where the search for it starts (low 32). A directory
   * continues its parent's answer rather than searching its whole key again.
   *
   * @param before this answer for the first {@code searchedTo} characters of {@code childPrefix}
   *     (its parent's childPrefix), or {@link #NOT_SEARCHED}
   * @return 0 for a spec decided without literals
   */
  long runsFound(String childPrefix, long before, int searchedTo) {
    Prepared p = prepared();
    if (p.shape != Shape.EXPRESSION) {
      return 0;
    }
    String[] runs = p.requiredRuns;
    int i;
    int from;
    int resume;
    if (before == NOT_SEARCHED) {
      i = p.runsAtStart;
      from = searchStart(p);
      resume = from;
    } else {
      i = (int) (before >>> 32);
      from = (int) before;
      // Run i was not found in the first searchedTo characters: only a place ending later can hold it.
      resume = i < runs.length ? Math.max(from, searchedTo - runs[i].length() + 1) : from;
    }
    for (; i < runs.length; i++) {
      int at = childPrefix.indexOf(runs[i], resume);
      if (at < 0) {
        break;
      }
      from = at + runs[i].length();
      resume = from;
    }
    return (long) i << 32 | from;
  }

  /**
   * Whether the keys of a directory's children, {@code childPrefix + NAME} with NAME one path
   * component, can hold this spec's required literals, given how far {@code childPrefix} holds
   * them ({@link #runsFound}), and if so where a child's lookup resumes the search in its name:
   * the index of the first run that lies in NAME, flagged when that run must begin in {@code
   * childPrefix} (at its last '/') and NAME must begin with the rest; {@link #NO_CHILD} when no
   * NAME can. A walk of /usr tried each entry against some twenty expressions, most of which no
   * name in its directory could complete (a required {@code /xfce4/session/...} under {@code
   * /usr/lib/x86_64-linux-gnu/}): they are dropped once per directory instead.
   *
   * <p>Sound because NAME holds no '/': a run without '/' that is not found in {@code
   * childPrefix} can only lie in NAME (it cannot cover the final '/'), and a run with a '/' not
   * found there must end {@code childPrefix} with its last '/'. Runs are found leftmost first,
   * which is never later than any other placement.
   *
   * @return 0 for a spec decided without literals (shapes, expressions without runs)
   */
  int childProgress(String childPrefix, long runsFound) {
    Prepared p = prepared();
    if (p.shape != Shape.EXPRESSION) {
      return 0;
    }
    // A name holds no '/': the closing run's part up to its last '/' must end childPrefix.
    int end = childPrefix.length();
    if (p.suffixHead > 0 && !endsWith(childPrefix, end, p.requiredSuffix, p.suffixHead)) {
      return NO_CHILD;
    }
    int i = (int) (runsFound >>> 32);
    int from = (int) runsFound;
    if (i == p.requiredRuns.length) {
      return i;
    }
    if (p.lastRunWithSlash > i) {
      return NO_CHILD;
    }
    int head = p.runHeads[i];
    if (head == 0) {
      return i;
    }
    return end - head < from || !endsWith(childPrefix, end, p.requiredRuns[i], head) ? NO_CHILD : i | STRADDLES;
  }

  /** Whether {@code s[0..end)} ends with {@code part[0..length)}. */
  private static boolean endsWith(String s, int end, String part, int length) {
    return end >= length && s.regionMatches(end - length, part, 0, length);
  }

  /**
   * What the name of every child of the directory whose key and '/' is {@code childPrefix} starts
   * with, if this spec matches it, given {@code progress} there ({@link #childProgress}, never
   * {@link #NO_CHILD}); null when that is not known. A lookup compares it before anything else:
   * in /usr/lib/x86_64-linux-gnu, half of a walk of /usr, a name was tried against specs such as
   * /usr/(.*&#47;)?sbin(/.*)? and /usr/lib/[^/]*&#47;run-mozilla\.sh that only one name there matches.
   *
   * <p>Two cases, both sound because NAME holds no '/': a run that straddles the directory's key
   * (its part up to its last '/' ends {@code childPrefix}) continues at NAME's start; and for
   * {@code HEAD(.*&#47;)?DIR TAIL}, DIR (without '/') begins a component of the key, which in a child's
   * key is either one of the directory's own (then the directory may match too much to tell) or
   * NAME, since DIR cannot hold the '/' that ends {@code childPrefix}.
   */
  String childNameHead(String childPrefix, int progress) {
    Prepared p = prepared();
    if (p.shape != Shape.EXPRESSION) {
      return null;
    }
    int first = progress & ~STRADDLES;
    if (progress != first) {
      String rest = p.runRests[first];
      return rest.isEmpty() ? null : rest;
    }
    String dirsName = p.dirsName;
    if (dirsName == null || dirsName.indexOf('/') >= 0 || !childPrefix.startsWith(p.dirsHead)) {
      return null;
    }
    int start = p.dirsHead.length();
    for (int at = childPrefix.indexOf(dirsName, start); at >= 0; at = childPrefix.indexOf(dirsName, at + 1)) {
      if (at == start || childPrefix.charAt(at - 1) == '/') {
        return null;
      }
    }
    return dirsName;
  }

  /**
   * {@link #matches} for a child's key, {@code key = childPrefix + NAME} with NAME starting at
   * {@code nameStart}, given {@code progress}: what {@link #childProgress} answered for
   * childPrefix (never {@link #NO_CHILD}).
   */
  boolean matchesChild(String key, int nameStart, int progress) {
    Prepared p = prepared();
    if (p.shape != Shape.EXPRESSION) {
      return matches(key);
    }
    if (p.separateStem != null && !key.startsWith(p.separateStem)) {
      return false;
    }
    if (!hasRequiredSuffix(p, key)) {
      return false;
    }
    int first = progress & ~STRADDLES;
    int from = nameStart;
    if (progress != first) {
      String rest = p.runRests[first];
      if (!key.startsWith(rest, nameStart)) {
        return false;
      }
      from = nameStart + rest.length();
      first++;
    }
    return hasRuns(p.requiredRuns, first, key, from) && expressionMatches(p, key);
  }

  /** How many of the keys that extend a directory's key and '/' a spec may match. */
  enum Extensions {
    /** None: the directory drops it. */
    NONE,
    /** Some, or it cannot tell (an expression): the directory keeps it. */
    SOME,
    /**
     * Every one, whatever the entry's type: it wins every lookup beneath the directory that
     * reaches it, so no spec after it in libselinux's order can.
     */
    EVERY
  }

  /**
   * Which keys that extend {@code keyPrefix} (a directory's key and '/') by a name or more this
   * spec may match. Shapes answer from their head. An expression is always kept, never sure:
   * running it on every directory (to see whether it fails before the end of the key) cost 17 us
   * per directory on Debian's policy, far more than trying the few expressions it would drop on
   * the directory's entries.
   */
  Extensions extensionsOf(String keyPrefix) {
    Prepared p = prepared();
    String separateStem = p.separateStem;
    String head = p.head;
    boolean pastStem = separateStem == null || keyPrefix.startsWith(separateStem);
    if (!pastStem && !separateStem.startsWith(keyPrefix)) {
      return Extensions.NONE;
    }
    if (p.shape == Shape.EXPRESSION) {
      return Extensions.SOME;
    }
    // Sure only of a spec for every type whose stem the directory is past.
    Extensions ifMatching = fileType == FileType.ANY && pastStem ? Extensions.EVERY : Extensions.SOME;
    if (keyPrefix.length() <= head.length()) {
      if (!head.startsWith(keyPrefix)) {
        return Extensions.NONE;
      }
      // At the head itself the rest is the name alone, which only the tails that take any rest
      // accept whatever it is.
      return keyPrefix.length() == head.length() && (p.shape == Shape.ANY_REST || p.shape == Shape.SOME_REST)
          ? ifMatching
          : Extensions.SOME;
    }
    if (!keyPrefix.startsWith(head)) {
      return Extensions.NONE;
    }
    // Past the head an extension's rest is what keyPrefix holds there (non-empty, ending with
    // '/'), then a name: a shape that may match one extension matches them all.
    char next = keyPrefix.charAt(head.length());
    boolean matching = switch (p.shape) {
      case EXACT -> false;
      case SUBTREE, SLASH_REST -> next == '/';
      case ANY_REST, SOME_REST -> true;
      case EXPRESSION -> throw new AssertionError();
    };
    return matching ? ifMatching : Extensions.NONE;
  }

  /** Whether some key that extends {@code keyPrefix} could match ({@link #extensionsOf}). */
  boolean mayMatchExtensionOf(String keyPrefix) {
    return extensionsOf(keyPrefix) != Extensions.NONE;
  }

  /**
   * Whether the expression matches {@code key} or could match a longer key that starts with it:
   * libselinux's partial match ({@code PCRE2_PARTIAL_SOFT}), which decides what a directory's
   * digest covers. Unlike a lookup, no stem is compared and the key need not start with the
   * required prefix. An expression answers through the matcher having read to the key's end
   * ({@code hitEnd}), PCRE2's own notion of a partial match; tests hold both to libselinux.
   */
  boolean matchesOrPartially(String key) {
    Prepared p = prepared();
    if (p.shape == Shape.EXPRESSION) {
      return partially(p.pattern, key);
    }
    if (key.length() < p.head.length()) {
      // The key ends inside the literal head: the match runs out of subject.
      return p.head.startsWith(key);
    }
    return key.startsWith(p.head) && tailMatches(p.shape, key, p.head.length(), true);
  }

  /** {@link #matchesOrPartially} as the expression alone answers it, for tests. */
  boolean matchesOrPartiallyByExpression(String key) {
    return partially(reference(), key);
  }

  /**
   * PCRE2's soft partial match: a match, or else an attempt that reached the end of the key.
   * PCRE2 counts an attempt only when it inspected something, which an attempt that starts at
   * the very end has not, unless the pattern can match the empty string or looks behind
   * ({@code \\b} and {@code \\B} look one character back). Java's {@code hitEnd} after
   * {@code find} counts that attempt always, and more (its minimum-length cut-off), so each
   * start is tried on its own.
   */
  private static boolean partially(PcrePattern expression, String key) {
    java.util.regex.Matcher m = expression.matcher(key);
    if (m.find()) {
      return true;
    }
    // Bounds that only delimit where attempts start: "^" and lookbehinds still see the whole key.
    m.useTransparentBounds(true).useAnchoringBounds(false);
    int lastStart = emptyPartialAllowed(expression) ? key.length() : key.length() - 1;
    for (int start = 0; start <= lastStart; start++) {
      m.region(start, key.length());
      if (m.lookingAt() || m.hitEnd()) {
        return true;
      }
    }
    return false;
  }

  private static boolean emptyPartialAllowed(PcrePattern expression) {
    if (expression.matcher("").find()) {
      return true;
    }
    String source = expression.source();
    for (int i = 0; i < source.length() - 1; i++) {
      if (source.charAt(i) == '\\') {
        char escaped = source.charAt(++i);
        if (escaped == 'b' || escaped == 'B') {
          return true;
        }
      } else if (source.startsWith("(?<", i) && i + 3 < source.length()
          && (source.charAt(i + 3) == '=' || source.charAt(i + 3) == '!')) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the expression alone says: false only when it failed on {@code keyPrefix} without
   * reading to its end, so that no longer key can match. Tests hold the shapes' answers to it.
   */
  boolean mayMatchExtensionByExpression(String keyPrefix) {
    java.util.regex.Matcher m = reference().matcher(keyPrefix);
    return m.find() || m.hitEnd();
  }
}
