package dev.relabel.regex;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A PCRE2 pattern compiled as libselinux compiles it (8-bit, non-UTF, {@code PCRE2_DOTALL}) and
 * run on {@link java.util.regex}: subjects are byte strings held as ISO-8859-1 strings, one char
 * per byte. The translation from PCRE2 syntax is {@link PcreTranslator}'s.
 */
public final class PcrePattern {
  /*
   * DOTALL: the translation writes PCRE2's dotall '.' as a bare '.' (and \C, \X, full byte
   * sets likewise). Nothing else it writes depends on a flag: case folding, '^', '$' and the
   * non-dotall '.' are spelled out with PCRE2's rules (ASCII-only folding, LF the only newline).
   */
  static final int FLAGS = Pattern.DOTALL;

  private final String source;
  /** What {@link #source} translates to in java.util.regex syntax. */
  private final String translation;
  /**
   * Compiled on first use when made by {@link #ofTranslation}: a run that loads a compiled policy
   * compiles only the expressions its lookups reach. A racy first use may compile twice; both
   * results are equal and immutable, so no lock is taken on the lookup path.
   */
  private volatile Pattern pattern;

  private PcrePattern(String source, String translation, Pattern pattern) {
    this.source = source;
    this.translation = translation;
    this.pattern = pattern;
  }

  /** Compiles a PCRE2 pattern, rejecting what PCRE2 rejects. */
  public static PcrePattern compile(String pcre) throws PcreSyntaxException {
    String java = PcreTranslator.translate(pcre);
    try {
      return new PcrePattern(pcre, java, Pattern.compile(java, FLAGS));
    } catch (PatternSyntaxException e) {
      throw new PcreSyntaxException(e.getDescription(), Math.max(0, e.getIndex()));
    } catch (StackOverflowError e) {
      throw new PcreSyntaxException("pattern too complex", 0);
    }
  }

  /**
   * Checks that PCRE2 compiles {@code "^" + regex + "$"}, as libselinux compiles a spec's
   * expression, without translating what is valid by construction (see {@link LiteralHead}).
   *
   * @return the compiled expression, when it had to be compiled; empty when it is valid by
   *     construction
   */
  public static Optional<PcrePattern> checkAnchored(String regex) throws PcreSyntaxException {
    if (LiteralHead.validByConstruction(regex)) {
      return Optional.empty();
    }
    return Optional.of(compile("^" + regex + "$"));
  }

  /**
   * A pattern whose translation was made (and checked: it compiled) earlier, by this version of
   * relabel, and stored in a compiled policy: it is compiled again on first use only.
   *
   * @param pcre the PCRE2 pattern
   * @param translation what {@link #translation()} returned for it
   */
  public static PcrePattern ofTranslation(String pcre, String translation) {
    return new PcrePattern(pcre, translation, null);
  }

  /** The java.util.regex source this pattern runs as. */
  public String translation() {
    return translation;
  }

  /** The PCRE2 pattern this was compiled from. */
  public String source() {
    return source;
  }

  /** The java.util.regex pattern that stands for it. */
  public Pattern javaPattern() {
    Pattern compiled = pattern;
    if (compiled == null) {
      // It compiled when it was stored; failing now means the compiled policy lied.
      compiled = Pattern.compile(translation, FLAGS);
      pattern = compiled;
    }
    return compiled;
  }

  /** Whether the pattern matches somewhere in {@code subject}, as an unanchored pcre2_match does. */
  public boolean find(CharSequence subject) {
    return javaPattern().matcher(subject).find();
  }

  /** A reusable matcher, for callers that match many subjects on one thread. */
  public Matcher matcher(CharSequence subject) {
    return javaPattern().matcher(subject);
  }

  @Override
  public String toString() {
    return source;
  }
}
