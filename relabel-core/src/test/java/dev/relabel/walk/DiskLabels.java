package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Reads and sets {@code security.selinux} on real files for tests, never following a symlink. */
final class DiskLabels {
  private static final Kernel KERNEL = Kernel.linux();

  private DiskLabels() {}

  /** The label of {@code p} without its NUL; null when it has none. */
  static String get(Path p) throws NativeIoException {
    byte[] path = PathBytes.of(p.toAbsolutePath());
    return text(KERNEL.getLabel(Kernel.AT_FDCWD, Kernel.nul(path), path));
  }

  /** The label of {@code name} (raw bytes) in the open directory {@code dirfd}. */
  static String get(int dirfd, byte[] name) throws NativeIoException {
    return text(KERNEL.getLabel(dirfd, Kernel.nul(name), name));
  }

  /** Sets the label of {@code p}, with a trailing NUL as libselinux writes it. */
  static void set(Path p, String label) throws NativeIoException {
    byte[] path = PathBytes.of(p.toAbsolutePath());
    KERNEL.setLabel(Kernel.AT_FDCWD, Kernel.nul(path), Kernel.nul(label.getBytes(StandardCharsets.ISO_8859_1)),
        path);
  }

  private static String text(byte[] value) {
    if (value == null) {
      return null;
    }
    int end = value.length;
    for (int i = 0; i < value.length; i++) {
      if (value[i] == 0) {
        end = i;
        break;
      }
    }
    return new String(Arrays.copyOf(value, end), StandardCharsets.ISO_8859_1);
  }

  /**
   * Runs {@code bash -c script}, failing with its output when it exits non-zero. Output goes to a
   * file, not a pipe, so a chatty child cannot block.
   */
  static void bash(Path scratch, String script) throws IOException, InterruptedException {
    Path out = scratch.resolve("bash-" + System.nanoTime() + ".out");
    Process process = new ProcessBuilder(List.of("bash", "-c", script)).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + script);
    }
    String output = java.nio.file.Files.readString(out, StandardCharsets.ISO_8859_1);
    java.nio.file.Files.delete(out);
    if (process.exitValue() != 0) {
      throw new AssertionError("bash exited " + process.exitValue() + ": " + script + "\n" + output);
    }
  }
}
