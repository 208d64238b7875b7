package dev.relabel.archive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarUtils;

/**
 * A tar header block's numeric fields, read as GNU tar reads them (its from_header and
 * tar_checksum), where Commons Compress is stricter: a field may start with one NUL and blanks,
 * and what follows the digits' terminating NUL or blank is not looked at. An archive GNU tar
 * lists must not be refused, and a size read differently would lose the archive's framing.
 * TarLabellerTest holds each spelling against GNU tar.
 */
final class TarHeaderFields {
  /** A numeric field: its name in messages, where it starts in the block, its length. */
  record Field(String name, int offset, int length) {}

  static final Field MODE = new Field("mode", 100, 8);
  static final Field SIZE = new Field("size", 124, 12);
  static final Field MTIME = new Field("mtime", 136, 12);
  static final Field CHECKSUM = new Field("checksum", 148, 8);
  static final Field DEVMAJOR = new Field("devmajor", 329, 8);
  static final Field DEVMINOR = new Field("devminor", 337, 8);
  static final int FLAG_OFFSET = 156;
  private static final int MAGIC_OFFSET = 257;
  private static final byte[] OLD_GNU_MAGIC = "ustar ".getBytes(StandardCharsets.US_ASCII);
  /** Where an old GNU header's times, sparse map and real size start. */
  private static final int OLD_GNU_EXTRA_OFFSET = 345;

  private TarHeaderFields() {}

  /**
   * A numeric field as GNU tar reads it: one NUL and blanks skipped, then octal digits up to the
   * field's end, a NUL or a blank; or, unless {@code octalOnly}, base-256 after a first byte of
   * 0x80 (0xff, negative, is refused: sizes and times here are not).
   *
   * @throws IllegalArgumentException when GNU tar would not read it as a number either
   */
  static long number(byte[] block, Field field, boolean octalOnly) {
    int at = field.offset();
    int end = field.offset() + field.length();
    if (block[at] == 0) {
      at++; // GNU tar: "Accommodate buggy tar of unknown vintage, which outputs leading NUL"
    }
    while (at < end && isBlank(block[at])) {
      at++;
    }
    if (!octalOnly && at < end && (block[at] & 0xff) == 0x80) {
      return TarUtils.parseOctalOrBinary(block, at, end - at);
    }
    if (at == end || !isOctalDigit(block[at])) {
      throw new IllegalArgumentException("not a number");
    }
    long value = 0;
    while (at < end && isOctalDigit(block[at])) {
      if (value >>> 60 != 0) {
        throw new IllegalArgumentException("out of range");
      }
      value = value * 8 + block[at++] - '0';
    }
    if (at < end && block[at] != 0 && !isBlank(block[at])) {
      throw new IllegalArgumentException("not a number");
    }
    return value;
  }

  /**
   * Whether the checksum field (octal only) holds the block's sum: the field counted as blanks,
   * the bytes unsigned or signed.
   */
  static boolean checksumMatches(byte[] block) {
    long recorded;
    try {
      recorded = number(block, CHECKSUM, true);
    } catch (IllegalArgumentException e) {
      return false;
    }
    long unsigned = 0;
    long signed = 0;
    for (int i = 0; i < block.length; i++) {
      byte b = i >= CHECKSUM.offset() && i < CHECKSUM.offset() + CHECKSUM.length() ? (byte) ' ' : block[i];
      unsigned += b & 0xff;
      signed += b;
    }
    return recorded == unsigned || recorded == signed;
  }

  /**
   * The fields GNU tar reads from every member's header (and a device's numbers) that it cannot
   * read as numbers, which it reports and extracts the member anyway; not uid and gid, which it
   * reads only where the owner has no name.
   */
  static List<Field> unreadable(byte[] block) {
    byte flag = block[FLAG_OFFSET];
    List<Field> fields = flag == '3' || flag == '4' ? List.of(MODE, MTIME, DEVMAJOR, DEVMINOR) : List.of(MODE, MTIME);
    List<Field> unreadable = new ArrayList<>(0);
    for (Field field : fields) {
      try {
        if ((block[field.offset()] & 0xff) == 0xff) {
          // base-256, negative (a time before 1970): read if it fits 64 bits, as GNU tar's time_t
          TarUtils.parseOctalOrBinary(block, field.offset(), field.length());
        } else {
          number(block, field, false);
        }
      } catch (IllegalArgumentException e) {
        unreadable.add(field);
      }
    }
    return unreadable;
  }

  /** A field's bytes as text for a message, without trailing NULs. */
  static String text(byte[] block, Field field) {
    int end = field.offset() + field.length();
    while (end > field.offset() && block[end - 1] == 0) {
      end--;
    }
    return new String(block, field.offset(), end - field.offset(), StandardCharsets.ISO_8859_1);
  }

  /**
   * A copy of a header for Commons Compress to read its name and link name from: the fields read
   * here (checksum, size, mtime) written as zeros, since Commons Compress reads them again and
   * refuses spellings GNU tar takes; likewise an old GNU header's times, sparse map and real size,
   * which GNU tar reads only for a sparse member ('S') and Commons Compress for every member.
   */
  static byte[] forCommonsCompress(byte[] block) {
    byte[] copy = block.clone();
    for (Field field : List.of(SIZE, MTIME, CHECKSUM)) {
      Arrays.fill(copy, field.offset(), field.offset() + field.length() - 1, (byte) '0');
      copy[field.offset() + field.length() - 1] = 0;
    }
    if (Arrays.equals(copy, MAGIC_OFFSET, MAGIC_OFFSET + OLD_GNU_MAGIC.length, OLD_GNU_MAGIC, 0, OLD_GNU_MAGIC.length)
        && copy[FLAG_OFFSET] != 'S') {
      Arrays.fill(copy, OLD_GNU_EXTRA_OFFSET, copy.length, (byte) 0);
    }
    return copy;
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || (b >= '\t' && b <= '\r'); // C's isspace in the C locale
  }

  private static boolean isOctalDigit(byte b) {
    return b >= '0' && b <= '7';
  }
}
