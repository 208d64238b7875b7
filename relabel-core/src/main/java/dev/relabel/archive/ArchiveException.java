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

  public ArchiveException(String member, long offset, String problem) {
    super((member == null ? "header" : "member '" + member + "'") + " at offset " + offset + ": " + problem);
    this.offset = offset;
  }

  /** The byte offset, in the uncompressed tar stream, of the header where the problem is. */
  public long offset() {
    return offset;
  }
}
