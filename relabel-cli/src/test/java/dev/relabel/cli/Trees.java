package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.oracle.Oracles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Test trees with labels set and read by the attr package's tools (never by the engine's own
 * native layer), child processes, and the reference setfiles. Paths and outputs are held one char
 * per byte (ISO-8859-1), so that any byte compares.
 */
final class Trees {
  static final Path SETFILES = Path.of("/usr/sbin/setfiles");

  private Trees() {}

  /** What a process left: status, standard output and standard error, one char per byte. */
  record Run(int status, String out, String err) {
    /** Standard output's lines, as a sorted set (threads make the order vary). */
    TreeSet<String> outLines() {
      return lines(out);
    }

    TreeSet<String> errLines() {
      return lines(err);
    }

    @Override
    public String toString() {
      return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
    }
  }

  static TreeSet<String> lines(String text) {
    TreeSet<String> lines = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty()) {
        lines.add(line);
      }
    }
    return lines;
  }

  /**
   * Skips (outside CI) or fails (in CI) unless the tools these tests need are here: setfattr and
   * getfattr, and with {@code reference} also libselinux, Debian's policy and setfiles.
   */
  static void requireTools(boolean reference) {
    String missing = reference ? Oracles.missing() : null;
    if (missing == null && reference && !Files.isExecutable(SETFILES)) {
      missing = SETFILES + " is missing (apt-get install policycoreutils)";
    }
    if (missing == null && !Files.isExecutable(Path.of("/usr/bin/setfattr"))) {
      missing = "setfattr is missing (apt-get install attr)";
    }
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and a reference tool is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  /** Runs a command to its end; stderr goes to a file so that a chatty child cannot block. */
  static Run run(List<String> command, Path scratch) throws IOException, InterruptedException {
    return run(command, scratch, null);
  }

  static Run run(List<String> command, Path scratch, Path stdin) throws IOException, InterruptedException {
    Path errors = Files.createTempFile(scratch, "stderr", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
    builder.redirectInput(stdin == null ? ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())
        : ProcessBuilder.Redirect.from(stdin.toFile()));
    builder.environment().put("LC_ALL", "C");
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + command);
    }
    String err = new String(Files.readAllBytes(errors), StandardCharsets.ISO_8859_1);
    Files.delete(errors);
    return new Run(process.exitValue(), new String(out, StandardCharsets.ISO_8859_1), err);
  }

  /** Runs a command that must succeed; its standard output. */
  static String check(List<String> command, Path scratch) throws IOException, InterruptedException {
    Run r = run(command, scratch);
    if (r.status() != 0) {
      fail(command + " exited " + r.status() + ": " + r.err());
    }
    return r.out();
  }

  /** Runs {@code relabel ARGS} in-process; the result in the same form as a process's. */
  static Run relabel(List<String> args) {
    return relabel(new byte[0], args);
  }

  static Run relabel(byte[] stdin, List<String> args) {
    Cli.Result r = Cli.run(stdin, StandardCharsets.UTF_8, args.toArray(String[]::new));
    return new Run(r.status(), r.outLatin1(), new String(r.errBytes(), StandardCharsets.ISO_8859_1));
  }

  /** Sets (or with null removes) an entry's label without following a symlink. */
  static void setLabel(Path path, String context, Path scratch) throws IOException, InterruptedException {
    if (context == null) {
      run(List.of("setfattr", "-h", "-x", "security.selinux", path.toString()), scratch);
    } else {
      check(List.of("setfattr", "-h", "-n", "security.selinux", "-v", context, path.toString()), scratch);
    }
  }

  /** An entry's label as stored (a trailing NUL dropped), or null. */
  static String label(Path path, Path scratch) throws IOException, InterruptedException {
    Run r = run(List.of("getfattr", "-h", "--only-values", "-n", "security.selinux", path.toString()), scratch);
    if (r.status() != 0) {
      return null;
    }
    String value = r.out();
    return value.endsWith("\0") ? value.substring(0, value.length() - 1) : value;
  }

  /** Copies a tree with its labels ({@code cp -a}). */
  static void copy(Path from, Path to, Path scratch) throws IOException, InterruptedException {
    check(List.of("cp", "-a", from.toString(), to.toString()), scratch);
  }

  /** Every entry under root (root itself as "."), relative, one char per byte, in find's order. */
  static List<String> entries(Path root, Path scratch) throws IOException, InterruptedException {
    List<String> entries = new ArrayList<>();
    for (String line : check(List.of("find", root.toString(), "-printf", "%P\\n"), scratch).split("\n")) {
      entries.add(line.isEmpty() ? "." : line);
    }
    return entries;
  }

  /**
   * Every entry's raw security.selinux (hex, so a trailing NUL counts) by path relative to root,
   * "&lt;none&gt;" for an entry without one.
   */
  static Map<String, String> labels(Path root, Path scratch) throws IOException, InterruptedException {
    String dump = run(List.of("getfattr", "-h", "-R", "-e", "hex", "-n", "security.selinux", "--absolute-names",
        root.toString()), scratch).out();
    Map<String, String> labels = new TreeMap<>();
    for (String entry : entries(root, scratch)) {
      labels.put(entry, "<none>");
    }
    String prefix = root.toString();
    String file = null;
    for (String line : dump.split("\n")) {
      if (line.startsWith("# file: ")) {
        file = unescape(line.substring("# file: ".length()));
        file = file.equals(prefix) ? "." : file.substring(prefix.length() + 1);
      } else if (line.startsWith("security.selinux=") && file != null) {
        labels.put(file, line.substring("security.selinux=".length()));
      }
    }
    return labels;
  }

  /** getfattr writes bytes outside printable ASCII (and '\') as \ooo. */
  private static String unescape(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '\\' && i + 3 < name.length() + 0 && isOctal(name, i + 1)) {
        out.append((char) Integer.parseInt(name.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int at) {
    if (at + 3 > s.length()) {
      return false;
    }
    for (int i = at; i < at + 3; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '7') {
        return false;
      }
    }
    return true;
  }

  /** Makes a file whose name holds bytes that are not UTF-8 ({@code name} one char per byte). */
  static void touchRaw(Path directory, String name, Path scratch) throws IOException, InterruptedException {
    StringBuilder octal = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.ISO_8859_1)) {
      octal.append(String.format("\\%03o", b & 0xff));
    }
    check(List.of("sh", "-c", "cd \"$1\" && touch \"$(printf '" + octal + "')\"", "sh", directory.toString()),
        scratch);
  }

  static String[] array(List<String> list) {
    return list.toArray(String[]::new);
  }

  static List<String> list(String... items) {
    return new ArrayList<>(Arrays.asList(items));
  }
}
