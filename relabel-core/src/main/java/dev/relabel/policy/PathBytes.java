package dev.relabel.policy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Paths are bytes, not text: the one place they are converted. Inside the matcher a path is a
 * String holding one char per byte (ISO-8859-1), which java.util.regex can match and which the
 * JDK stores compactly; at the edges, a {@link Path} is text the JDK decoded with {@code
 * sun.jnu.encoding}, a command-line argument text decoded with {@link #charset()} (that charset made
 * lossless), and encoding either back with {@link #charset()} gives the bytes the kernel holds:
 * every byte of an argument, every name the JDK could decode.
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
   * The absolute form of the path {@code path} (bytes, relative to the working directory when it
   * does not begin with '/'), without "." and ".." components or repeated and trailing slashes, as
   * {@link Path#normalize()} makes it ("/.." is "/"); its bytes whatever the locale could decode.
   */
  public static byte[] absolute(byte[] path) {
    String text = latin1(path);
    if (!text.startsWith("/")) {
      text = latin1(of(Path.of("").toAbsolutePath())) + "/" + text;
    }
    java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>();
    for (String name : text.split("/")) {
      if (name.equals("..")) {
        names.pollLast();
      } else if (!name.isEmpty() && !name.equals(".")) {
        names.addLast(name);
      }
    }
    return fromLatin1(names.isEmpty() ? "/" : "/" + String.join("/", names));
  }

  /**
   * The charset the JDK decodes file names and command-line arguments with ({@code
   * sun.jnu.encoding}, the locale's), each byte it cannot decode escaped ({@link EscapingCharset}):
   * text decoded with it encodes back to the very bytes it came from, whatever the locale. Encoding
   * a name the JDK decoded gives the bytes the kernel holds, for every name it could decode.
   */
  public static Charset charset() {
    return JNU;
  }

  /** Whether {@code charset} is UTF-8, or UTF-8 with its undecodable bytes escaped ({@link #charset()}). */
  public static boolean isUtf8(Charset charset) {
    return localeCharset(charset).equals(StandardCharsets.UTF_8);
  }

  /** The locale's charset that {@code charset} escapes the undecodable bytes of; {@code charset} itself otherwise. */
  public static Charset localeCharset(Charset charset) {
    return charset instanceof EscapingCharset escaping ? escaping.locale() : charset;
  }

  private static Charset jnu() {
    String name = System.getProperty("sun.jnu.encoding");
    Charset locale;
    try {
      locale = name == null ? Charset.defaultCharset() : Charset.forName(name);
    } catch (RuntimeException e) {
      locale = Charset.defaultCharset();
    }
    return new EscapingCharset(locale);
  }
}
