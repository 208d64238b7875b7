package dev.relabel.archive;

import dev.relabel.policy.FileType;
import java.util.Arrays;

/**
 * One member of a tar stream as read, headers kept as raw bytes: what came before its PAX
 * extended header, that header (block and records), and what came after (GNU long names, the
 * member's own header, sparse extensions). Writing {@code before}, the PAX header, {@code after}
 * and the data gives the member back byte for byte.
 *
 * @param offset where its first header starts in the uncompressed stream
 * @param labelled whether it is a file system entry (false for a global header or volume label,
 *     copied as they are)
 * @param before raw header bytes before the PAX extended header (all of them when it has none)
 * @param paxBlock the PAX extended header as it was (its 512-byte header, then its padded data), or
 *     null when it has none
 * @param pax its records (empty when it has none)
 * @param after raw header bytes after the PAX extended header
 * @param name the member's name as the archive gives it (PAX path, GNU long name or header), one
 *     char per byte
 * @param path its path with the archive's root as {@code /} (for lookups), or null
 * @param type the file type the policy is asked about
 * @param typeflag the header's type flag
 * @param linkTarget for a hard link ({@code '1'}), its target's path (root as {@code /}), else null
 * @param dataSize the bytes of data after the headers, padding not counted
 * @param modTime the member header's modification time, seconds (a PAX header made for it gets it too)
 */
public record TarMember(long offset, boolean labelled, byte[] before, byte[] paxBlock, PaxRecords pax, byte[] after,
    String name, byte[] path, FileType type, byte typeflag, byte[] linkTarget, long dataSize,
    long modTime) {
  /** Tar's block: headers and data come in multiples of it. */
  public static final int BLOCK = 512;

  /** Whether this member is a hard link to an earlier one. */
  public boolean isHardLink() {
    return typeflag == '1';
  }

  /** About what this member holds in memory: its raw headers, name, path and link target. */
  public long heldBytes() {
    return before.length + (paxBlock == null ? 0 : paxBlock.length) + after.length + name.length()
        + (path == null ? 0 : path.length) + (linkTarget == null ? 0 : linkTarget.length);
  }

  /** The data's size rounded up to whole blocks (what follows the headers in the stream). */
  public long paddedDataSize() {
    return (dataSize + BLOCK - 1) / BLOCK * BLOCK;
  }

  /** The label its PAX records hold (trailing NUL dropped), or null. */
  public String currentLabel() {
    return pax.label();
  }

  /**
   * A member name as the path GNU tar extracts it to, with the archive's root as {@code /}: {@code
   * ./etc/passwd}, {@code etc/passwd}, {@code /etc/passwd}, {@code etc//passwd} and {@code
   * ./etc/./passwd} are all {@code /etc/passwd} (the kernel resolves "." and repeated slashes; a
   * policy is asked about the path setfiles would meet); {@code ./} is {@code /}. ".." is kept:
   * GNU tar extracts no member whose name holds it.
   */
  public static byte[] archivePath(byte[] name) {
    byte[] path = new byte[name.length + 1];
    int length = 0;
    int start = 0;
    for (int i = 0; i <= name.length; i++) {
      if (i == name.length || name[i] == '/') {
        boolean dot = i - start == 1 && name[start] == '.';
        if (i > start && !dot) {
          path[length++] = '/';
          System.arraycopy(name, start, path, length, i - start);
          length += i - start;
        }
        start = i + 1;
      }
    }
    return length == 0 ? new byte[] {'/'} : Arrays.copyOf(path, length);
  }
}
