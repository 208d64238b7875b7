package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Which package (and version) a tool comes from, as dpkg says. */
final class Versions {
  private Versions() {}

  /** "PACKAGE VERSION" of the Debian package that owns {@code file}, or null when none does. */
  static String ofPackagedFile(Path file) throws InterruptedException {
    String real;
    try {
      real = file.toRealPath().toString();
    } catch (IOException e) {
      return null;
    }
    // With merged /usr, dpkg may know /usr/sbin/setfiles as /sbin/setfiles.
    for (String candidate : List.of(real, real.startsWith("/usr/") ? real.substring(4) : real)) {
      String owner = output(List.of("dpkg-query", "-S", candidate));
      if (owner != null && owner.contains(":")) {
        String pkg = owner.substring(0, owner.indexOf(": ")).split(",")[0].trim();
        String version = output(List.of("dpkg-query", "-W", "-f=${Version}", pkg));
        return pkg.replaceAll(":.*", "") + " " + (version == null ? "?" : version);
      }
    }
    return null;
  }

  /** A command's first line of stdout when it exits 0, else null (also when it cannot start). */
  static String output(List<String> command) throws InterruptedException {
    return line(command, "");
  }

  /**
   * The first line of a command's stdout that starts with {@code prefix}, when it exits 0; else
   * null (also when it cannot start).
   */
  static String line(List<String> command, String prefix) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0 || text.isEmpty()) {
        return null;
      }
      for (String line : text.split("\n")) {
        if (line.startsWith(prefix)) {
          return line;
        }
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }
}
