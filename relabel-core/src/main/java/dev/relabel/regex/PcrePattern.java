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
  private final Pattern pattern;

  private PcrePattern(String source, Pattern pattern) {
    this.source = source;
    this.pattern = pattern;
  }

  /** Compiles a PCRE2 pattern, rejecting what PCRE2 rejects. */
  public static PcrePattern compile(String pcre) throws PcreSyntaxException {
    String java = PcreTranslator.translate(pcre);
    try {
      return new PcrePattern(pcre, Pattern.compile(java, FLAGS));
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

  /** The PCRE2 pattern this was compiled from. */
  public String source() {
    return source;
  }

  /** The java.util.regex pattern that stands for it. */
  public Pattern javaPattern() {
    return pattern;
  }

  /** Whether the pattern matches somewhere in {@code subject}, as an unanchored pcre2_match does. */
  public boolean find(CharSequence subject) {
    return pattern.matcher(subject).find();
  }

  /** A reusable matcher, for callers that match many subjects on one thread. */
  public Matcher matcher(CharSequence subject) {
    return pattern.matcher(subject);
  }

  @Override
  public String toString() {
    return source;
  }
}
