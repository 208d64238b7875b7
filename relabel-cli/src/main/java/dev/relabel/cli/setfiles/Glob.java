package dev.relabel.cli.setfiles;

import dev.relabel.nativeio.DirEntry;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Expands a path argument as setfiles 3.4 does before labelling it: glibc's
 * {@code glob(pattern, GLOB_TILDE | GLOB_PERIOD | GLOB_NOCHECK | GLOB_BRACE)} in the C locale.
 *
 * <ul>
 *   <li>{@code {a,b}} alternatives (nested too) are expanded first, each alternative globbed on its
 *       own and its matches appended in alternative order; a brace without its closing brace is
 *       literal.
 *   <li>A leading {@code ~} or {@code ~/} is {@code $HOME}; {@code ~user} is that user's home
 *       directory from {@code /etc/passwd}, or stays as written for an unknown user.
 *   <li>{@code *}, {@code ?} and {@code [...]} (with {@code !} or {@code ^}, ranges and
 *       {@code [:class:]}) match names within one directory; in the last component they match a
 *       leading dot too, {@code .} and {@code ..} included (GLOB_PERIOD), in earlier components
 *       they do not. A backslash quotes the next character.
 *   <li>A pattern without wildcards is kept as written, unless it has a backslash: then it is
 *       unquoted when the unquoted path exists.
 *   <li>The matches of one pattern are sorted bytewise; a pattern that matches nothing stands for
 *       itself, exactly as written.
 * </ul>
 */
public final class Glob {
  private static final Kernel KERNEL = Kernel.linux();

  private final Charset charset;

  /**
   * @param charset the charset the pattern was decoded with and the paths are returned in (the
   *     arguments' {@link dev.relabel.policy.PathBytes#charset()})
   */
  Glob(Charset charset) {
    this.charset = charset;
  }

  /**
   * The paths {@code pattern} stands for, in glibc's order; never empty. setfiles globs in the C
   * locale (it calls no setlocale): a byte is a character, whatever the user's locale, so the
   * pattern and the names are matched as one char per byte.
   */
  List<String> expand(String pattern) {
    List<String> out = new ArrayList<>();
    String bytes = PathBytes.latin1(pattern.getBytes(charset));
    globBraces(bytes, out, true, true);
    if (out.isEmpty()) {
      return List.of(pattern);
    }
    for (int i = 0; i < out.size(); i++) {
      out.set(i, new String(PathBytes.fromLatin1(out.get(i)), charset));
    }
    return out;
  }

  /** glob() with GLOB_BRACE: appends the matches of each alternative, each sorted on its own. */
  private void globBraces(String pattern, List<String> out, boolean tilde, boolean nocheck) {
    int begin = -1;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        i++;
      } else if (c == '{') {
        begin = i;
        break;
      }
    }
    if (begin >= 0) {
      List<int[]> alternatives = new ArrayList<>();
      int start = begin + 1;
      int end = -1;
      while (true) {
        int next = nextBraceSub(pattern, start);
        if (next < 0) {
          break; // not well-formed: the braces are literal
        }
        alternatives.add(new int[] {start, next});
        if (pattern.charAt(next) == '}') {
          end = next;
          break;
        }
        start = next + 1;
      }
      if (end >= 0) {
        String head = pattern.substring(0, begin);
        String rest = pattern.substring(end + 1);
        for (int[] alternative : alternatives) {
          globBraces(head + pattern.substring(alternative[0], alternative[1]) + rest, out, tilde, false);
        }
        return;
      }
    }
    List<String> matches = new ArrayList<>();
    glob(pattern, tilde, true, false, nocheck, matches);
    sort(matches);
    out.addAll(matches);
  }

  /**
   * glibc's next_brace_sub: from {@code start}, the index of the ',' or '}' that ends this
   * alternative (skipping nested braces and quoted characters), or -1.
   */
  private static int nextBraceSub(String pattern, int start) {
    int depth = 0;
    for (int i = start; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (++i >= pattern.length()) {
          return -1;
        }
      } else if ((c == '}' && depth-- == 0) || (c == ',' && depth == 0)) {
        return i;
      } else if (c == '{') {
        depth++;
      }
    }
    return -1;
  }

  /**
   * Appends the matches of a brace-free pattern, unsorted.
   *
   * @param period whether wildcards match a leading dot (the last component at the top level)
   * @param onlyDirectories wildcards keep directories only (components before the last)
   * @param nocheck GLOB_NOCHECK below a trailing slash: nothing found stands for the pattern
   */
  private void glob(String pattern, boolean tilde, boolean period, boolean onlyDirectories, boolean nocheck,
      List<String> out) {
    if (tilde && pattern.startsWith("~")) {
      pattern = expandTilde(pattern);
    }
    // "pattern/": the matches of pattern, a slash after each directory.
    if (pattern.length() > 1 && pattern.endsWith("/")) {
      int end = pattern.length();
      while (end > 1 && pattern.charAt(end - 1) == '/') {
        end--;
      }
      String stripped = pattern.substring(0, end);
      List<String> found = new ArrayList<>();
      glob(stripped, false, period, true, false, found);
      if (found.isEmpty() && nocheck) {
        out.add(stripped);
      }
      for (String path : found) {
        out.add(isDirectory(path) && !path.endsWith("/") ? path + "/" : path);
      }
      return;
    }
    if (type(pattern) != Magic.SPECIAL) {
      String path = unquote(pattern);
      if (exists(path)) {
        out.add(path);
      }
      return;
    }
    int slash = pattern.lastIndexOf('/');
    String dirname = slash < 0 ? null : slash == 0 ? "/" : pattern.substring(0, slash);
    String filename = pattern.substring(slash + 1);
    List<String> directories = new ArrayList<>();
    if (dirname == null) {
      directories.add(null);
    } else if (type(dirname) == Magic.SPECIAL) {
      glob(dirname, false, false, true, false, directories);
    } else {
      directories.add(unquote(dirname));
    }
    boolean special = type(filename) == Magic.SPECIAL;
    Pattern regex = special ? Pattern.compile(toRegex(filename), Pattern.DOTALL) : null;
    for (String directory : directories) {
      String prefix = directory == null ? "" : directory.equals("/") ? "/" : directory + "/";
      if (!special) {
        String path = prefix + unquote(filename);
        if (exists(path)) {
          out.add(path);
        }
        continue;
      }
      for (String name : names(directory == null ? "." : directory)) {
        if (!period && name.startsWith(".") && !filename.startsWith(".")) {
          continue;
        }
        if (regex.matcher(name).matches()) {
          String path = prefix + name;
          if (!onlyDirectories || isDirectory(path)) {
            out.add(path);
          }
        }
      }
    }
  }

  private enum Magic { NONE, BACKSLASH, SPECIAL }

  /** glibc's __glob_pattern_type: '*', '?' or a '[' closed by a ']' make a pattern special. */
  private static Magic type(String pattern) {
    boolean backslash = false;
    boolean bracket = false;
    for (int i = 0; i < pattern.length(); i++) {
      switch (pattern.charAt(i)) {
        case '?', '*' -> {
          return Magic.SPECIAL;
        }
        case '\\' -> {
          if (i + 1 < pattern.length()) {
            i++;
          }
          backslash = true;
        }
        case '[' -> bracket = true;
        case ']' -> {
          if (bracket) {
            return Magic.SPECIAL;
          }
        }
        default -> {
        }
      }
    }
    return backslash ? Magic.BACKSLASH : Magic.NONE;
  }

  private static String unquote(String pattern) {
    if (pattern.indexOf('\\') < 0) {
      return pattern;
    }
    StringBuilder out = new StringBuilder(pattern.length());
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        c = pattern.charAt(++i);
      }
      out.append(c);
    }
    return out.toString();
  }

  /** fnmatch(3) without FNM_PERIOD (handled by the caller) as a Java regex. */
  static String toRegex(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        case '\\' -> {
          if (i + 1 < pattern.length()) {
            c = pattern.charAt(++i);
          }
          regex.append(Pattern.quote(String.valueOf(c)));
        }
        case '[' -> {
          int end = bracket(pattern, i, regex);
          if (end < 0) {
            regex.append("\\[");
          } else {
            i = end;
          }
        }
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return regex.toString();
  }

  private static final List<String> CLASSES =
      List.of("alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit");

  /**
   * Translates the bracket expression starting at {@code start} ('['), appending it to
   * {@code regex}; returns the index of its closing ']', or -1 (nothing appended) when it is not
   * closed and '[' is literal.
   */
  private static int bracket(String pattern, int start, StringBuilder regex) {
    StringBuilder set = new StringBuilder();
    int i = start + 1;
    boolean negate = false;
    if (i < pattern.length() && (pattern.charAt(i) == '!' || pattern.charAt(i) == '^')) {
      negate = true;
      i++;
    }
    boolean first = true;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == ']' && !first) {
        if (set.length() == 0) {
          regex.append(negate ? "." : "(?!)"); // only empty ranges such as [b-a]
        } else {
          regex.append(negate ? "[^" : "[").append(set).append(']');
        }
        return i;
      }
      first = false;
      if (c == '[' && i + 1 < pattern.length() && pattern.charAt(i + 1) == ':') {
        int close = pattern.indexOf(":]", i + 2);
        if (close > 0 && CLASSES.contains(pattern.substring(i + 2, close))) {
          set.append("\\p{").append(posixClass(pattern.substring(i + 2, close))).append('}');
          i = close + 2;
          continue;
        }
      }
      if (c == '\\' && i + 1 < pattern.length()) {
        c = pattern.charAt(++i);
      }
      char low = c;
      if (i + 2 < pattern.length() && pattern.charAt(i + 1) == '-' && pattern.charAt(i + 2) != ']') {
        int j = i + 2;
        char high = pattern.charAt(j);
        if (high == '\\' && j + 1 < pattern.length()) {
          high = pattern.charAt(++j);
        }
        if (low <= high) {
          set.append(escapeInClass(low)).append('-').append(escapeInClass(high));
        }
        i = j + 1;
        continue;
      }
      set.append(escapeInClass(low));
      i++;
    }
    return -1;
  }

  private static String posixClass(String name) {
    return switch (name) {
      case "alnum" -> "Alnum";
      case "alpha" -> "Alpha";
      case "blank" -> "Blank";
      case "cntrl" -> "Cntrl";
      case "digit" -> "Digit";
      case "graph" -> "Graph";
      case "lower" -> "Lower";
      case "print" -> "Print";
      case "punct" -> "Punct";
      case "space" -> "Space";
      case "upper" -> "Upper";
      default -> "XDigit";
    };
  }

  private static String escapeInClass(char c) {
    return Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\x{" + Integer.toHexString(c) + "}";
  }

  private String expandTilde(String pattern) {
    int slash = pattern.indexOf('/');
    String user = pattern.substring(1, slash < 0 ? pattern.length() : slash);
    String rest = slash < 0 ? "" : pattern.substring(slash);
    String home = user.isEmpty() ? System.getenv("HOME") : homeOf(user);
    if (home == null || home.isEmpty()) {
      return pattern;
    }
    if (user.isEmpty()) {
      home = PathBytes.latin1(home.getBytes(charset));
    }
    return home + rest;
  }

  private static String homeOf(String user) {
    try {
      for (String line : Files.readAllLines(Path.of("/etc/passwd"), java.nio.charset.StandardCharsets.ISO_8859_1)) {
        String[] fields = line.split(":", -1);
        if (fields.length >= 6 && fields[0].equals(user)) {
          return fields[5];
        }
      }
    } catch (IOException | RuntimeException e) {
      // no such user as far as we can tell
    }
    return null;
  }

  /** The names in a directory, "." and ".." included, as readdir lists them; none if unreadable. */
  private static List<String> names(String directory) {
    // Opened as "DIR/.": O_DIRECTORY, as opendir(3) opens it (a FIFO where a directory was
    // expected fails at once with ENOTDIR, as in glob(3), instead of blocking until a writer
    // comes), following a symlink named DIR as opendir does. Listed as bytes: a name the locale
    // cannot decode is matched and labelled as it is.
    byte[] path = bytes(directory.isEmpty() ? "./." : directory + "/.");
    List<String> names = new ArrayList<>();
    try {
      int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, path, path);
      try {
        for (DirEntry entry : KERNEL.readDirectory(fd, path)) {
          names.add(PathBytes.latin1(entry.name()));
        }
      } finally {
        KERNEL.close(fd);
      }
    } catch (NativeIoException e) {
      return List.of();
    }
    names.add(0, "..");
    names.add(0, ".");
    return names;
  }

  private static boolean exists(String path) {
    return !path.isEmpty() && stats(bytes(path));
  }

  /** Whether {@code path} is a directory or a symlink to one. */
  private static boolean isDirectory(String path) {
    return !path.isEmpty() && stats(bytes(path + "/."));
  }

  private static boolean stats(byte[] path) {
    try {
      KERNEL.lstat(path);
      return true;
    } catch (NativeIoException e) {
      return false;
    }
  }

  private static byte[] bytes(String path) {
    return PathBytes.fromLatin1(path);
  }

  /** Sorts as strcmp in the C locale: by the bytes of each name (a char each here). */
  private static void sort(List<String> paths) {
    if (paths.size() > 1) {
      java.util.Collections.sort(paths);
    }
  }
}
