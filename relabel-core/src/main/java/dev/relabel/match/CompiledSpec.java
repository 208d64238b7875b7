package dev.relabel.match;

import dev.relabel.regex.PcrePattern;
import dev.relabel.regex.PcreSyntaxException;
import dev.relabel.spec.FileType;
import dev.relabel.spec.Spec;

/** One spec, ready to test against keys; {@code rank} is its place in libselinux's search order. */
final class CompiledSpec {
  final int rank;
  final Spec spec;
  final FileType fileType;
  /** Every key this spec matches starts with this. */
  final String requiredPrefix;
  /** The spec's text when it matches only itself; null when the expression must run. */
  private final String literal;
  private final PcrePattern pattern;

  CompiledSpec(int rank, Spec spec) {
    this.rank = rank;
    this.spec = spec;
    this.fileType = spec.fileType();
    this.requiredPrefix = SpecShape.requiredPrefix(spec.regex());
    if (SpecShape.isPlainLiteral(spec.regex())) {
      this.literal = spec.regex();
      this.pattern = null;
    } else {
      this.literal = null;
      try {
        this.pattern = PcrePattern.compile("^" + spec.regex() + "$");
      } catch (PcreSyntaxException e) {
        // The loader has already compiled every expression; a Policy built by hand may not have.
        throw new IllegalArgumentException(spec.location() + ": invalid regex " + spec.regex() + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * Whether the spec matches {@code key}, which starts with {@link #requiredPrefix} (and so has
   * the spec's stem, when it has one).
   */
  boolean matches(String key) {
    if (literal != null) {
      // "^LIT$": '$' also matches before a final newline.
      int extra = key.length() - literal.length();
      return (extra == 0 || (extra == 1 && key.charAt(key.length() - 1) == '\n')) && key.startsWith(literal);
    }
    return pattern.find(key);
  }

  /**
   * Whether some key that extends {@code keyPrefix} could match: false only when the expression
   * failed on {@code keyPrefix} without reading to its end.
   */
  boolean mayMatchExtensionOf(String keyPrefix) {
    if (literal != null) {
      return literal.startsWith(keyPrefix);
    }
    java.util.regex.Matcher m = pattern.matcher(keyPrefix);
    return m.find() || m.hitEnd();
  }
}
