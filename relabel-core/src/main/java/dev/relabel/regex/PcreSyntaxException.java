package dev.relabel.regex;

/** A pattern that PCRE2 would refuse to compile, or that uses a feature this engine cannot express. */
public final class PcreSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int offset;

  public PcreSyntaxException(String message, int offset) {
    super(message + " at offset " + offset);
    this.offset = offset;
  }

  /** The offset in the PCRE2 pattern where the problem was found. */
  public int offset() {
    return offset;
  }
}
