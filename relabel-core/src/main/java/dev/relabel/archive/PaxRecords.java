package dev.relabel.archive;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The records of a PAX extended header ({@code "LENGTH KEY=VALUE\n"} each), as raw bytes. Commons
 * Compress decodes PAX values as UTF-8 (a name that is not UTF-8 would not survive) and rewrites
 * what it writes, so the records are read and written here, each kept byte for byte.
 */
public final class PaxRecords {
  /** The record GNU tar {@code --xattrs} writes an entry's SELinux label in: the context and a NUL. */
  public static final String SELINUX = "SCHILY.xattr.security.selinux";
  /** The record GNU tar {@code --selinux} (Red Hat's patch) writes: the context alone. */
  public static final String RHT_SELINUX = "RHT.security.selinux";
  /**
   * The record libarchive (bsdtar {@code --xattrs}) writes beside the SCHILY one by default: the
   * attribute's value in base64, without padding. libarchive restores both, the later last.
   */
  public static final String LIBARCHIVE_SELINUX = "LIBARCHIVE.xattr.security.selinux";

  /** One record: its key (text) and value (bytes), and the record as it was written. */
  public record Record(String key, byte[] value, byte[] raw) {}

  private final List<Record> records;

  private PaxRecords(List<Record> records) {
    this.records = List.copyOf(records);
  }

  /**
   * Parses {@code data} (the extended header's content).
   *
   * @throws IllegalArgumentException with what is wrong, when a record is malformed
   */
  public static PaxRecords parse(byte[] data) {
    List<Record> records = new ArrayList<>();
    int at = 0;
    while (at < data.length) {
      if (data[at] == 0) {
        break; // NUL padding after the last record, as some writers leave it
      }
      int space = at;
      long length = 0;
      while (space < data.length && data[space] >= '0' && data[space] <= '9' && space - at < 10) {
        length = length * 10 + (data[space] - '0');
        space++;
      }
      if (space == at || space >= data.length || data[space] != ' ' || length <= space - at + 1
          || at + length > data.length || data[(int) (at + length - 1)] != '\n') {
        throw new IllegalArgumentException("malformed PAX record at byte " + at + " of the extended header");
      }
      int end = (int) (at + length);
      int equals = space + 1;
      while (equals < end - 1 && data[equals] != '=') {
        equals++;
      }
      if (equals >= end - 1) {
        throw new IllegalArgumentException("PAX record without '=' at byte " + at + " of the extended header");
      }
      String key = new String(data, space + 1, equals - space - 1, StandardCharsets.UTF_8);
      records.add(new Record(key, Arrays.copyOfRange(data, equals + 1, end - 1), Arrays.copyOfRange(data, at, end)));
      at = end;
    }
    return new PaxRecords(records);
  }

  /** No records. */
  public static PaxRecords empty() {
    return new PaxRecords(List.of());
  }

  public List<Record> records() {
    return records;
  }

  /** The value of the last record named {@code key} (the last one wins, as in GNU tar), or null. */
  public byte[] value(String key) {
    byte[] value = null;
    for (Record record : records) {
      if (record.key().equals(key)) {
        value = record.value();
      }
    }
    return value;
  }

  /**
   * Whether a label record is here and every one ({@link #SELINUX}, {@link #RHT_SELINUX}, {@link
   * #LIBARCHIVE_SELINUX}) holds {@code context}, with its NUL or without: GNU tar {@code --selinux}
   * restores the RHT record, {@code --xattrs} the SCHILY one, bsdtar the LIBARCHIVE and SCHILY ones,
   * so a member is labelled right only when each would be.
   */
  public boolean labelsOnly(String context) {
    List<String> labels = labels();
    return !labels.isEmpty() && labels.stream().allMatch(context::equals);
  }

  /**
   * The label a member has that is not {@code context}, as a change reports it "from": the first
   * label record (SCHILY, RHT, then LIBARCHIVE) that does not hold it; null when the member has none.
   */
  public String labelOtherThan(String context) {
    return labels().stream().filter(label -> !label.equals(context)).findFirst().orElse(null);
  }

  /**
   * The label these records hold, without its trailing NUL: the {@link #SELINUX} record's, else
   * the {@link #RHT_SELINUX} record's, else the {@link #LIBARCHIVE_SELINUX} record's; null when
   * none is here.
   */
  public String label() {
    List<String> labels = labels();
    return labels.isEmpty() ? null : labels.get(0);
  }

  /** Each label record's context (SCHILY, RHT, LIBARCHIVE; the last of each key), without its NUL. */
  private List<String> labels() {
    List<String> labels = new ArrayList<>(3);
    for (String key : List.of(SELINUX, RHT_SELINUX, LIBARCHIVE_SELINUX)) {
      byte[] value = value(key);
      if (value != null) {
        labels.add(withoutNul(key.equals(LIBARCHIVE_SELINUX) ? fromBase64(value) : value));
      }
    }
    return labels;
  }

  /** A LIBARCHIVE record's value decoded; one that is not base64 as it is (a label no policy gives). */
  private static byte[] fromBase64(byte[] value) {
    try {
      return Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      return value;
    }
  }

  /** A label record's value as text, one char per byte, its trailing NUL dropped. */
  private static String withoutNul(byte[] value) {
    int length = value.length > 0 && value[value.length - 1] == 0 ? value.length - 1 : value.length;
    return new String(value, 0, length, StandardCharsets.ISO_8859_1);
  }

  /**
   * The header's content with every other record as it was, in its order, then {@code context} in
   * each kind of label record the member had, so that whichever tool extracts it restores it: an
   * {@link #RHT_SELINUX} record (the context alone) for GNU tar {@code --selinux}, a {@link
   * #LIBARCHIVE_SELINUX} one (base64) for libarchive, and always, last (where GNU tar writes
   * extended attributes), {@code SCHILY.xattr.security.selinux=CONTEXT\0}.
   */
  public byte[] withLabel(String context) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Record record : records) {
      if (!record.key().equals(SELINUX) && !record.key().equals(RHT_SELINUX)
          && !record.key().equals(LIBARCHIVE_SELINUX)) {
        out.writeBytes(record.raw());
      }
    }
    byte[] value = (context + "\0").getBytes(StandardCharsets.ISO_8859_1);
    if (value(RHT_SELINUX) != null) {
      out.writeBytes(record(RHT_SELINUX, context.getBytes(StandardCharsets.ISO_8859_1)));
    }
    if (value(LIBARCHIVE_SELINUX) != null) {
      out.writeBytes(record(LIBARCHIVE_SELINUX,
          Base64.getEncoder().withoutPadding().encode(value)));
    }
    out.writeBytes(record(SELINUX, value));
    return out.toByteArray();
  }

  /** One record, its length (which counts its own digits) first. */
  static byte[] record(String key, byte[] value) {
    byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
    int rest = 1 + keyBytes.length + 1 + value.length + 1; // ' ' KEY '=' VALUE '\n'
    int length = rest + 1;
    while (length != rest + Integer.toString(length).length()) {
      length = rest + Integer.toString(length).length();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(length);
    out.writeBytes(Integer.toString(length).getBytes(StandardCharsets.US_ASCII));
    out.write(' ');
    out.writeBytes(keyBytes);
    out.write('=');
    out.writeBytes(value);
    out.write('\n');
    return out.toByteArray();
  }
}
