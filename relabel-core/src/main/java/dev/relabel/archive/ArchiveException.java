package dev.relabel.archive;

import java.io.IOException;

/**
 * An archive that cannot be read: truncated, a bad checksum, a malformed PAX record. The message
 * names the member (as far as it was read) and the byte offset of its header in the uncompressed
 * stream, so that {@code tar -tvv} or a hex dump finds the spot.
 */
public final class ArchiveException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long offset;

  /**
   * @param member the member's name; {@code after 'NAME'} for a header that follows member NAME;
   *     null for the archive's first header
   */
  public ArchiveException(String member, long offset, String problem) {
    super(where(member, offset) + ": " + problem);
    this.offset = offset;
  }

  /** How a message names the place: {@code member 'NAME' at offset N}, as {@link #ArchiveException} takes it. */
  static String where(String member, long offset) {
    return (member == null ? "the first header" : member.startsWith("after '") ? "the header " + member
        : "member '" + member + "'") + " at offset " + offset;
  }

  /** The byte offset, in the uncompressed tar stream, of the header where the problem is. */
  public long offset() {
    return offset;
  }
}
