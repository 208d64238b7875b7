package dev.relabel.policy;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Paths are bytes, not text: the one place they are converted. Inside the matcher a path is a
 * String holding one char per byte (ISO-8859-1), which java.util.regex can match and which the
 * JDK stores compactly; at the edges, a {@link Path} is text the JDK decoded with {@code
 * sun.jnu.encoding}, a command-line argument text decoded with {@link #charset()} (that charset made
 * lossless), and encoding either back with {@link #charset()} gives the bytes the kernel holds:
 * every byte of an argument, every name the JDK could decode. A path whose bytes the JDK could not
 * decode is read through its file URI ({@link #of(Path)}), and an argument's path made from one
 * ({@link #path}), so that the JDK's file API opens any name a command line gives.
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

  /**
   * A {@link Path}'s raw bytes, as the kernel holds them. The JDK keeps a path's bytes (a name
   * listed from a directory opens whatever it holds), but {@code toString} decodes them with the
   * locale's charset and puts U+FFFD for a byte it cannot decode; only then are they read back from
   * the path's file URI, which spells each byte out ({@code %XX}).
   */
  public static byte[] of(Path path) {
    if (textNames(path) || path.getFileSystem() != FileSystems.getDefault()) {
      return path.toString().getBytes(JNU);
    }
    byte[] absolute = uriBytes(path.toAbsolutePath());
    if (path.isAbsolute()) {
      return absolute;
    }
    byte[] workingDirectory = uriBytes(Path.of("").toAbsolutePath());
    int skip = workingDirectory.length == 1 ? 1 : workingDirectory.length + 1;
    return Arrays.copyOfRange(absolute, Math.min(skip, absolute.length), absolute.length);
  }

  /**
   * {@code path} as text for messages: decoded with {@link #charset()}, so that it prints (encoded
   * with that charset) as the very bytes of its name, where {@code toString} would print U+FFFD.
   */
  public static String text(Path path) {
    return textNames(path) ? path.toString() : text(of(path));
  }

  /**
   * Path bytes as text for messages: decoded with {@link #charset()}, so that they print (encoded
   * with it, as relabel's output is) as the very bytes, where UTF-8 would put U+FFFD.
   */
  public static String text(byte[] path) {
    return new String(path, JNU);
  }

  /**
   * {@code e}, the JDK's exception about {@code file}, naming the file by {@link #text}: the JDK
   * names it by {@code toString}, U+FFFD for each byte the locale cannot decode, so a message made
   * from it would print another name. The same kind of exception (messages tell ENOENT, EACCES,
   * ENOTDIR and EEXIST by it), with {@code e} as its cause; {@code e} itself when it names another
   * file or names {@code file} right.
   */
  public static FileSystemException named(FileSystemException e, Path file) {
    if (textNames(file) || !file.toString().equals(e.getFile())) {
      return e;
    }
    return as(e, file);
  }

  /**
   * {@code e} as an exception about {@code file}, named by {@link #text}: the same kind, with
   * {@code e} as its cause. For a failure on a file the user did not name (the temporary beside an
   * output file) told as one on the file they did.
   */
  public static FileSystemException as(FileSystemException e, Path file) {
    return as(e, text(file));
  }

  /** {@link #as(FileSystemException, Path)} for a file known by its bytes (a walk builds no Path for each entry). */
  public static FileSystemException as(FileSystemException e, byte[] file) {
    return as(e, text(file));
  }

  private static FileSystemException as(FileSystemException e, String name) {
    FileSystemException renamed;
    if (e instanceof NoSuchFileException) {
      renamed = new NoSuchFileException(name, e.getOtherFile(), e.getReason());
    } else if (e instanceof AccessDeniedException) {
      renamed = new AccessDeniedException(name, e.getOtherFile(), e.getReason());
    } else if (e instanceof NotDirectoryException) {
      renamed = new NotDirectoryException(name);
    } else if (e instanceof FileAlreadyExistsException) {
      renamed = new FileAlreadyExistsException(name, e.getOtherFile(), e.getReason());
    } else {
      renamed = new FileSystemException(name, e.getOtherFile(), e.getReason());
    }
    renamed.initCause(e);
    return renamed;
  }

  /**
   * Whether {@code path}'s text names it, so that java.io ({@code path.toFile()}) opens the same
   * file: not when it holds bytes the locale cannot decode (see {@link #of(Path)}).
   */
  public static boolean textNames(Path path) {
    return path.toString().indexOf('\uFFFD') < 0;
  }

  /**
   * The {@link Path} the JDK's file API opens for {@code value}, a command line's argument (text
   * decoded with {@link #charset()}), whatever bytes it holds. {@link Path#of} encodes text with the
   * locale's charset and refuses a name with a byte that charset cannot decode; a file URI spells
   * each byte out, and the JDK's file system makes a path of exactly those bytes from one: such a
   * value is named name by name, relative as given; any other is {@code Path.of(value)}.
   */
  public static Path path(String value) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      // bytes the locale's charset cannot decode: named name by name below
    }
    byte[] bytes = value.getBytes(JNU);
    // resolve joins the names' bytes as they are: relative stays relative, "." and ".." stay
    Path path = bytes.length > 0 && bytes[0] == '/' ? Path.of("/") : Path.of("");
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == '/') {
        if (i > start) {
          path = path.resolve(name(Arrays.copyOfRange(bytes, start, i)));
        }
        start = i + 1;
      }
    }
    return path;
  }

  /** The relative path of the one name {@code name} (no '/'), whatever bytes it holds. */
  private static Path name(byte[] name) {
    try {
      return Path.of(new String(name, JNU));
    } catch (InvalidPathException e) {
      // its file URI spells each byte out, and the JDK makes a path of exactly those bytes from it
    }
    StringBuilder uri = new StringBuilder("file:///");
    appendEscaped(uri, name);
    return Path.of(URI.create(uri.toString())).getFileName();
  }

  /** {@code path} with {@code suffix} appended to its last name ({@code FILE.bin} beside {@code FILE}), whatever bytes it holds. */
  public static Path withSuffix(Path path, String suffix) {
    if (textNames(path)) {
      return path.resolveSibling(path.getFileName() + suffix);
    }
    return path(new String(of(path), JNU) + suffix);
  }

  private static void appendEscaped(StringBuilder uri, byte[] bytes) {
    for (byte b : bytes) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "/-._~".indexOf(c) >= 0) {
        uri.append((char) c);
      } else {
        uri.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
      }
    }
  }

  /** The bytes of an absolute path as its file URI spells them, without the '/' a directory's URI ends with. */
  private static byte[] uriBytes(Path absolute) {
    String uri = absolute.toUri().getRawPath();
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(uri.length());
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '%' && i + 2 < uri.length()) {
        bytes.write(Integer.parseInt(uri.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    byte[] raw = bytes.toByteArray();
    int end = raw.length > 1 && raw[raw.length - 1] == '/' ? raw.length - 1 : raw.length;
    return Arrays.copyOf(raw, end);
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
