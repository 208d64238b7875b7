package dev.relabel.regex;

/** A pattern that PCRE2 would refuse to compile, or that uses a feature this engine cannot express. */
public final class PcreSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int offset;
  /** Whether the pattern is valid as far as it was read, but holds something relabel cannot run. */
  private final boolean unsupported;
  /** For such a construct, what stands in for it to read the rest of the pattern; may be null. */
  private final transient StandIn standIn;

  /**
   * What {@link PcreReadOn} puts in place of the construct from {@code start} to {@code end}: a
   * construct of the same shape relabel runs ({@code (?:)} for a call, {@code (?=} for an
   * alphabetic lookahead, {@code (?)} for what cannot be repeated); {@code reference} is the
   * group it names (an Integer, a String name, or null), checked once the pattern is read;
   * {@code maxBranches}, when above 0, the alternatives the group it opens may hold (a
   * conditional's two, a DEFINE's one).
   */
  record StandIn(int start, int end, String text, Object reference, int maxBranches) {}

  public PcreSyntaxException(String message, int offset) {
    this(message, offset, false, null);
  }

  PcreSyntaxException(String message, int offset, boolean unsupported, StandIn standIn) {
    super(message + " at offset " + offset);
    this.offset = offset;
    this.unsupported = unsupported;
    this.standIn = standIn;
  }

  /** The message without " at offset N". */
  String problem() {
    String message = getMessage();
    return message.substring(0, message.lastIndexOf(" at offset "));
  }

  boolean unsupported() {
    return unsupported;
  }

  StandIn standIn() {
    return standIn;
  }

  /** The offset in the PCRE2 pattern where the problem was found. */
  public int offset() {
    return offset;
  }
}
