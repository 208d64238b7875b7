package dev.relabel.walk;

import java.nio.charset.Charset;
import java.nio.file.Path;

/** A {@link Path}'s raw bytes: the JDK decodes Unix names with {@code sun.jnu.encoding}, so encode them back with it. */
public final class PathBytes {
  private static final Charset JNU = jnu();

  private PathBytes() {}

  static byte[] of(Path path) {
    return path.toString().getBytes(JNU);
  }

  /**
   * The charset the JDK decodes file names and command-line arguments with. Encoding a name back
   * with it gives the bytes the kernel holds, for every name it could decode (all of them under
   * ISO-8859-1, the valid ones under UTF-8).
   */
  public static Charset charset() {
    return JNU;
  }

  /** The absolute form without "." and ".." components. */
  static byte[] absolute(Path path) {
    return of(path.toAbsolutePath().normalize());
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
