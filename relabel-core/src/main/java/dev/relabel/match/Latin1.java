package dev.relabel.match;

import java.nio.charset.StandardCharsets;

/**
 * Paths are bytes, not text. Inside the matcher a path is a String holding one char per byte
 * (ISO-8859-1), which java.util.regex can match and which the JDK stores compactly, one byte per
 * char. These convert at the edges without loss.
 */
public final class Latin1 {
  private Latin1() {}

  /** The path bytes as a one-char-per-byte string. */
  public static String of(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** The bytes of a one-char-per-byte string. */
  public static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }
}
