package dev.relabel.archive;

import dev.relabel.policy.FileType;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipEncoding;
import org.apache.commons.compress.archivers.zip.ZipEncodingHelper;

/**
 * Splits an uncompressed tar stream (ustar, GNU, PAX) into {@link TarMember}s, keeping every
 * header byte. Commons Compress decodes each header block (ISO-8859-1: one char per byte, so a
 * name's bytes survive; base-256 sizes; the star, GNU and POSIX layouts) and checks its checksum;
 * the framing is done here because {@code TarArchiveInputStream} hides the raw headers and
 * expands sparse files, which a byte-for-byte copy must not. After {@link #next}, the member's
 * data is read with {@link #copyData}, {@link #readData} or {@link #skipData} (or skipped by the
 * next {@code next}).
 */
public final class TarReader {
  /** The largest PAX or GNU long-name header read into memory. */
  static final int MAX_EXTENDED_HEADER = 16 << 20;

  private static final ZipEncoding RAW = ZipEncodingHelper.getZipEncoding("ISO-8859-1");
  private static final int ODD_MEMBERS_SHOWN = 10;

  private final InputStream in;
  private long position;
  private TarMember current;
  private long dataLeft;
  /** A global extended header's data with its padding, read ahead to be checked (see {@link #next}). */
  private byte[] heldData;
  /** The end-of-archive block once read; empty when the archive ended without one. */
  private byte[] endBlock;
  /** Extended headers read at the end with no member after them. */
  private byte[] unclaimed = new byte[0];
  private String oddEnd;
  /** What GNU tar would report about members' headers, but copies (fields it cannot read, ...). */
  private final List<String> oddMembers = new ArrayList<>();
  private int oddMemberCount;
  /** How many bytes of a last, partial header block the archive ended with (GNU tar ignores them). */
  private int partialBlock;
  /** The last member read, to place an error in a header that could not be read. */
  private String previousName;

  public TarReader(InputStream tar) {
    this.in = tar;
  }

  /** The next member, or null at the end-of-archive block. */
  public TarMember next() throws IOException {
    if (current != null) {
      skipData();
    }
    if (endBlock != null) {
      return null;
    }
    long offset = position;
    ByteArrayOutputStream before = new ByteArrayOutputStream();
    ByteArrayOutputStream after = new ByteArrayOutputStream();
    byte[] paxBlock = null;
    PaxRecords pax = PaxRecords.empty();
    byte[] longName = null;
    byte[] longLink = null;
    while (true) {
      long headerOffset = position;
      byte[] block = readBlock(null, offset, true);
      if (block == null || isZero(block)) {
        // GNU tar ends the archive here, silently, with or without end-of-archive blocks and
        // ignoring extended headers no member follows; so does this, keeping those headers and
        // saying what was odd.
        List<String> odd = new ArrayList<>(2);
        if (before.size() + after.size() > 0 || paxBlock != null) {
          unclaimed = concat(concat(before.toByteArray(), paxBlock == null ? new byte[0] : paxBlock),
              after.toByteArray());
          odd.add("the extended headers at offset " + offset + " have no member after them (GNU tar ignores"
              + " them)");
        }
        if (block == null && partialBlock > 0) {
          odd.add("the archive ends at offset " + headerOffset + " inside a header block, " + partialBlock + " of its "
              + TarMember.BLOCK + " bytes (truncated? GNU tar ignores them and takes the members before it)");
        } else if (block == null) {
          odd.add("the archive ends at offset " + headerOffset + " without its end-of-archive blocks (truncated?"
              + " GNU tar takes the members before it)");
        }
        oddEnd = odd.isEmpty() ? null : String.join("; ", odd);
        endBlock = block == null ? new byte[0] : block;
        return null;
      }
      if (!TarHeaderFields.checksumMatches(block)) {
        throw new ArchiveException(where(longName), headerOffset,
            "bad header checksum (corrupt, or not a tar archive)");
      }
      byte flag = block[TarHeaderFields.FLAG_OFFSET];
      ByteArrayOutputStream into = paxBlock == null ? before : after;
      switch (flag) {
        case 'x', 'X' -> {
          byte[] data = readExtended(block, headerOffset, longName);
          if (paxBlock != null) {
            // A second extended header for one member: the earlier one is kept as it was.
            before.writeBytes(paxBlock);
            before.writeBytes(after.toByteArray());
            after.reset();
          }
          paxBlock = concat(block, padded(data));
          try {
            pax = PaxRecords.parse(data);
          } catch (IllegalArgumentException e) {
            throw new ArchiveException(where(longName), headerOffset, e.getMessage());
          }
          continue;
        }
        case 'L', 'K' -> {
          byte[] data = readExtended(block, headerOffset, null);
          into.writeBytes(block);
          into.writeBytes(padded(data));
          byte[] value = Arrays.copyOf(data, indexOfNul(data));
          if (flag == 'L') {
            longName = value;
          } else {
            longLink = value;
          }
          continue;
        }
        default -> {
          // the member's own header
        }
      }
      into.writeBytes(block);
      TarArchiveEntry entry;
      try {
        entry = new TarArchiveEntry(TarHeaderFields.forCommonsCompress(block), RAW, true);
      } catch (IOException | RuntimeException e) {
        throw new ArchiveException(where(null), headerOffset, "unreadable header: " + e.getMessage());
      }
      // GNU.sparse.name: a PAX sparse file's real name (its header's is GNUSparseFile.PID/NAME)
      byte[] name = firstOf(pax.value("GNU.sparse.name"), pax.value("path"), longName,
          entry.getName().getBytes(StandardCharsets.ISO_8859_1));
      String nameText = latin1(name);
      if (flag == 'S' && block[482] != 0) {
        // GNU sparse: extension blocks of the sparse map follow the header
        byte[] extension;
        do {
          extension = readBlock(nameText, position, false);
          into.writeBytes(extension);
        } while (extension[504] != 0);
      }
      long size = 0;
      try {
        if (flag != '1') {
          size = TarHeaderFields.number(block, TarHeaderFields.SIZE, false); // not a hard link's: GNU tar does not
        }
      } catch (IllegalArgumentException e) {
        throw new ArchiveException(nameText, offset, "bad size field");
      }
      byte[] paxSize = pax.value("size");
      if (paxSize != null) {
        try {
          size = Long.parseLong(new String(paxSize, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
          throw new ArchiveException(nameText, offset, "bad PAX size record");
        }
      }
      if (flag == '1' || flag == '2' || flag == '3' || flag == '4' || flag == '5' || flag == '6') {
        size = 0; // no data, whatever the size field says (as GNU tar reads them)
      }
      if (size < 0) {
        throw new ArchiveException(nameText, offset, "negative size");
      }
      FileType type = typeOf(flag, name);
      boolean labelled = type != null;
      byte[] link = null;
      if (flag == '1') {
        link = TarMember.archivePath(firstOf(pax.value("linkpath"), longLink,
            entry.getLinkName().getBytes(StandardCharsets.ISO_8859_1)));
      }
      for (TarHeaderFields.Field field : TarHeaderFields.unreadable(block)) {
        odd(ArchiveException.where(nameText, offset) + ": the " + field.name() + " field '"
            + TarHeaderFields.text(block, field) + "' is not a number (GNU tar says so, extracts the member and exits"
            + " with status 2); copied as it is");
      }
      current = new TarMember(offset, labelled, before.toByteArray(), paxBlock, pax, after.toByteArray(), nameText,
          labelled ? TarMember.archivePath(name) : null, labelled ? type : FileType.ANY, flag, link, size,
          modTime(block));
      dataLeft = current.paddedDataSize();
      previousName = nameText;
      if (flag == 'g' && dataLeft <= MAX_EXTENDED_HEADER) {
        // GNU tar applies its records to the members after it, and reports malformed ones
        heldData = new byte[(int) dataLeft];
        int read = in.readNBytes(heldData, 0, heldData.length);
        position += read;
        if (read < heldData.length) {
          throw truncated();
        }
        dataLeft = 0;
        try {
          PaxRecords.parse(Arrays.copyOf(heldData, (int) size));
        } catch (IllegalArgumentException e) {
          odd(ArchiveException.where(nameText, offset) + ": the global extended header is malformed (" + e.getMessage()
              + "; GNU tar says so, goes on and exits with status 2); copied as it is");
        }
      }
      return current;
    }
  }

  /** Copies the current member's data, with its padding, as it is. */
  public void copyData(OutputStream out) throws IOException {
    if (heldData != null) {
      out.write(heldData);
      heldData = null;
    }
    byte[] buffer = new byte[(int) Math.min(1 << 16, Math.max(TarMember.BLOCK, dataLeft))];
    while (dataLeft > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, dataLeft));
      if (n < 0) {
        throw truncated();
      }
      out.write(buffer, 0, n);
      dataLeft -= n;
      position += n;
    }
    current = null;
  }

  /** The current member's data with its padding (for members small enough to hold). */
  public byte[] readData() throws IOException {
    if (heldData != null) {
      byte[] held = heldData;
      heldData = null;
      current = null;
      return held;
    }
    byte[] data = new byte[(int) dataLeft];
    int read = in.readNBytes(data, 0, data.length);
    position += read;
    if (read < data.length) {
      throw truncated();
    }
    dataLeft = 0;
    current = null;
    return data;
  }

  /** Skips the current member's data. */
  public void skipData() throws IOException {
    heldData = null;
    try {
      // A file's skip may seek past its end: the last byte is read, so that a truncation shows here.
      if (dataLeft > 0) {
        in.skipNBytes(dataLeft - 1);
        if (in.read() < 0) {
          throw truncated();
        }
      }
    } catch (EOFException e) {
      throw truncated();
    }
    position += dataLeft;
    dataLeft = 0;
    current = null;
  }

  /**
   * After the last member: extended headers no member followed, the end-of-archive block and
   * whatever follows it, as they are; an archive that ended without the blocks gets both (in place
   * of a partial header block it ended with).
   */
  public void copyRest(OutputStream out) throws IOException {
    if (endBlock == null) {
      throw new IllegalStateException("not at the end of the archive");
    }
    out.write(unclaimed);
    if (endBlock.length == 0) {
      out.write(new byte[2 * TarMember.BLOCK]);
      return;
    }
    out.write(endBlock);
    in.transferTo(out);
  }

  /**
   * At the end: what GNU tar would report about the archive but takes, which this reader took
   * too: header fields it cannot read and malformed global headers (it says so, goes on and
   * exits with status 2; the first {@value #ODD_MEMBERS_SHOWN}, then a count), and last what was
   * odd about how the archive ended (no end-of-archive blocks, a partial header block, extended
   * headers without a member), which GNU tar takes silently. Empty when nothing was odd.
   */
  public List<String> oddities() {
    List<String> all = new ArrayList<>(oddMembers);
    if (oddMemberCount > oddMembers.size()) {
      all.add((oddMemberCount - oddMembers.size()) + " more such warnings about members");
    }
    if (oddEnd != null) {
      all.add(oddEnd);
    }
    return all;
  }

  /** Something GNU tar reports about a member and takes: the first {@value #ODD_MEMBERS_SHOWN} are kept. */
  private void odd(String message) {
    if (oddMemberCount++ < ODD_MEMBERS_SHOWN) {
      oddMembers.add(message);
    }
  }

  /** What to call the member whose header is being read: its long name, or the one after the last member. */
  private String where(byte[] longName) {
    if (longName != null) {
      return latin1(longName);
    }
    return previousName == null ? null : "after '" + previousName + "'";
  }

  private ArchiveException truncated() {
    return new ArchiveException(current.name(), current.offset(), "the archive ends inside the member's data"
        + " (truncated)");
  }

  private byte[] readExtended(byte[] block, long headerOffset, byte[] name) throws IOException {
    long size;
    try {
      size = TarHeaderFields.number(block, TarHeaderFields.SIZE, false);
    } catch (IllegalArgumentException e) {
      throw new ArchiveException(where(name), headerOffset, "bad size field in an extended header");
    }
    if (size < 0 || size > MAX_EXTENDED_HEADER) {
      throw new ArchiveException(where(name), headerOffset,
          "extended header of " + size + " bytes (at most " + MAX_EXTENDED_HEADER + " are read)");
    }
    byte[] data = new byte[(int) size];
    int padded = (int) ((size + TarMember.BLOCK - 1) / TarMember.BLOCK * TarMember.BLOCK);
    int read = in.readNBytes(data, 0, data.length);
    position += read;
    if (read < data.length) {
      throw new ArchiveException(where(name), headerOffset,
          "the archive ends inside an extended header (truncated)");
    }
    byte[] padding = new byte[padded - data.length];
    read = in.readNBytes(padding, 0, padding.length);
    position += read;
    if (read < padding.length) {
      throw new ArchiveException(where(name), headerOffset,
          "the archive ends inside an extended header (truncated)");
    }
    return data;
  }

  /**
   * A block, or null at the end of the stream when {@code endAllowed}: also when only part of a
   * header block is left, which GNU tar takes silently as the end of the archive.
   */
  private byte[] readBlock(String name, long memberOffset, boolean endAllowed) throws IOException {
    byte[] block = new byte[TarMember.BLOCK];
    int read = in.readNBytes(block, 0, TarMember.BLOCK);
    if (read < TarMember.BLOCK && endAllowed) {
      partialBlock = read;
      return null;
    }
    position += read;
    if (read < TarMember.BLOCK) {
      throw new ArchiveException(name != null ? name : where(null), memberOffset,
          "the archive ends inside a header block (truncated)");
    }
    return block;
  }

  /** The file type a policy is asked about for a member's type flag; null for what is not an entry. */
  static FileType typeOf(byte flag, byte[] name) {
    return switch (flag) {
      // a regular file's flags with a name ending in '/': GNU tar extracts a directory (the old
      // convention for one), as it does for AREGTYPE ('\0'); any other flag keeps its type
      case '0', 0, '7' -> name.length > 0 && name[name.length - 1] == '/' ? FileType.DIRECTORY : FileType.REGULAR_FILE;
      case 'S', '1' -> FileType.REGULAR_FILE;
      case '2' -> FileType.SYMLINK;
      case '3' -> FileType.CHAR_DEVICE;
      case '4' -> FileType.BLOCK_DEVICE;
      case '5', 'D' -> FileType.DIRECTORY;
      case '6' -> FileType.FIFO;
      // Not entries, copied as they are: global headers, Solaris extended headers, volume labels,
      // continuations of a file from another volume (the reader consumes 'x', 'K' and 'L').
      case 'g', 'X', 'V', 'M', 'x', 'K', 'L' -> null;
      // Any other flag: GNU tar extracts the member as a regular file ("Unknown file type 'Q',
      // extracted as normal file"), so that is the file it is labelled as.
      default -> FileType.REGULAR_FILE;
    };
  }

  private static byte[] firstOf(byte[]... candidates) {
    for (byte[] candidate : candidates) {
      if (candidate != null) {
        return candidate;
      }
    }
    return new byte[0];
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  static byte[] padded(byte[] data) {
    return Arrays.copyOf(data, (data.length + TarMember.BLOCK - 1) / TarMember.BLOCK * TarMember.BLOCK);
  }

  private static int indexOfNul(byte[] data) {
    for (int i = 0; i < data.length; i++) {
      if (data[i] == 0) {
        return i;
      }
    }
    return data.length;
  }

  /** The member's mtime in seconds; 0 when the field cannot be read (it only names a new PAX header). */
  private static long modTime(byte[] block) {
    try {
      return Math.max(0, TarHeaderFields.number(block, TarHeaderFields.MTIME, false));
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  private static boolean isZero(byte[] block) {
    for (byte b : block) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  private static String latin1(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
