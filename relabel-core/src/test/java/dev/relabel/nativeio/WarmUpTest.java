package dev.relabel.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Kernel#warmUp()}: JNA's first initialisation on a thread of its own changes nothing a
 * caller sees. Where JNA cannot start (its native library is nowhere it may load it from), the
 * first use and the next throw the same errors whether a warm-up failed before them or not. Each
 * of those runs is a JVM of its own: a class whose initialisation failed stays failed.
 */
class WarmUpTest {
  @TempDir
  Path dir;

  @Test
  void theKernelAnswersAfterAWarmUp() throws NativeIoException {
    Kernel.warmUp();
    Kernel.warmUp(); // once per process; a second call changes nothing
    FileStat root = Kernel.linux().lstat("/".getBytes(StandardCharsets.US_ASCII));
    assertEquals(FileStat.class, root.getClass());
    assertEquals("No such file or directory", Errno.strerror(Errno.ENOENT));
  }

  /**
   * After a warm-up, a short run's few calls go through JNA's Functions and never pay for the
   * direct mapping's binding; a walk's calls bind it in the background once there are {@link
   * Libc#BIND_AFTER} of them, and go through it from then on.
   */
  @Test
  void aWarmUpBindsTheDirectMappingOnlyOnceCallsRepayIt() throws Exception {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Binding.class.getName(), dir.toString())
        .redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child did not finish");
    assertEquals("few calls: direct=false\nmany calls: direct=true\n", out);
  }

  /** A child JVM for the test above: warms up, makes a few calls, then many. */
  public static final class Binding {
    public static void main(String[] args) throws Exception {
      Kernel.warmUp();
      Kernel kernel = Kernel.linux();
      byte[] path = args[0].getBytes(StandardCharsets.US_ASCII);
      kernel.lstat(path);
      kernel.getLabel(Kernel.AT_FDCWD, Kernel.nul(path), path);
      System.out.println("few calls: direct=" + Libc.direct);
      for (int call = 0; call < Libc.BIND_AFTER; call++) {
        kernel.lstat(path);
      }
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (thread.getName().equals("relabel-jna-bind")) {
          thread.join();
        }
      }
      kernel.lstat(path);
      System.out.println("many calls: direct=" + Libc.direct);
    }
  }

  /** {@code after}: the warm-up failed before the first use; {@code during}: the first use waits for it. */
  @ParameterizedTest
  @ValueSource(strings = {"after", "during"})
  void aFailedWarmUpChangesNoErrorACallerSees(String when) throws Exception {
    List<String> cold = probe("cold");
    assertTrue(cold.get(0).startsWith("java.lang.") && cold.get(0).contains("Error"),
        "JNA started after all, so there is no failure to compare: " + cold);
    assertEquals(cold, probe(when));
  }

  /** What {@link Probe} prints in a JVM whose JNA cannot load its native library. */
  private List<String> probe(String mode) throws IOException, InterruptedException {
    Path out = dir.resolve(mode + ".out");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djna.boot.library.path=" + dir.resolve("no-jna"), "-Djna.nosys=true", "-Djna.nounpack=true",
        "-cp", System.getProperty("java.class.path"), Probe.class.getName(), mode)
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe did not finish");
    List<String> lines = Files.readAllLines(out);
    assertEquals(0, process.exitValue(), lines::toString);
    return lines;
  }

  /**
   * A child JVM: with {@code after} or {@code during}, warms up first ({@code after}: waits for the
   * warm-up thread to end); then prints what two uses of the kernel and one of {@link Errno} throw.
   */
  public static final class Probe {
    public static void main(String[] args) throws InterruptedException {
      if (!args[0].equals("cold")) {
        Kernel.warmUp();
        if (args[0].equals("after")) {
          for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("relabel-jna-warm-up")) {
              thread.join();
            }
          }
        }
      }
      for (int use = 0; use < 2; use++) {
        try {
          System.out.println(Kernel.linux().lstat("/".getBytes(StandardCharsets.US_ASCII)));
        } catch (Throwable t) {
          System.out.println(t);
        }
      }
      try {
        System.out.println(Errno.strerror(Errno.ENOENT));
      } catch (Throwable t) {
        System.out.println(t);
      }
    }
  }
}
