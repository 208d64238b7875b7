package dev.relabel.policy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Paths are bytes, not text: the one place they are converted. Inside the matcher a path is a
 * String holding one char per byte (ISO-8859-1), which java.util.regex can match and which the
 * JDK stores compactly; at the edges, a {@link Path} or a command-line argument is text the JDK
 * decoded with {@code sun.jnu.encoding}, and encoding it back with that charset gives the bytes the
 * kernel holds. Both conversions are lossless for every name the JDK could decode.
 */
public final class PathBytes {
  private static final Charset JNU = jnu();

  private PathBytes() {}

  /** The path bytes as a one-char-per-byte string. */
  public static String latin1(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** The bytes of a one-char-per-byte string. */
  public static byte[] fromLatin1(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A {@link Path}'s raw bytes. */
  public static byte[] of(Path path) {
    return path.toString().getBytes(JNU);
  }

  /** The raw bytes of the absolute form of {@code path}, without "." and ".." components. */
  public static byte[] absolute(Path path) {
    return of(path.toAbsolutePath().normalize());
  }

  /**
   * The charset the JDK decodes file names and command-line arguments with. Encoding a name back
   * with it gives the bytes the kernel holds, for every name it could decode (all of them under
   * ISO-8859-1, the valid ones under UTF-8).
   */
  public static Charset charset() {
    return JNU;
  }

  private static Charset jnu() {
    String name = System.getProperty("sun.jnu.encoding");
    try {
      return name == null ? Charset.defaultCharset() : Charset.forName(name);
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
