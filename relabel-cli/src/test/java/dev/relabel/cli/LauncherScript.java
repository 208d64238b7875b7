package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.oracle.Oracles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * For the ITs that run {@code bin/relabel} and a reference tool from one bash script each, with
 * arguments only a shell can spell ({@code $'\xe9'}) or privileges only a new process can drop.
 */
public final class LauncherScript {
  private LauncherScript() {}

  /**
   * The launcher failsafe names (bin/relabel of the packaged build); outside failsafe and CI the
   * test is skipped, in CI it fails.
   */
  public static Path launcher(String test) {
    if (System.getProperty("relabel.launcher") == null && !Oracles.inCi()) {
      Assumptions.abort(test + " runs under maven-failsafe-plugin (mvn verify), which sets relabel.launcher");
    }
    assertTrue(System.getProperty("relabel.launcher") != null, "relabel.launcher is not set (run by failsafe)");
    return Path.of(System.getProperty("relabel.launcher")).toAbsolutePath().normalize();
  }

  /**
   * Runs {@code script} with bash in {@code dir} with {@code environment} added: its standard output, as Latin-1.
   * A script still running after 240 s (a relabel that hangs) is killed, its children too, and the
   * test fails, where reading its output waited forever and held the whole CI run.
   */
  static String run(Path dir, String script, Map<String, String> environment) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
    builder.environment().putAll(environment);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("RELABEL_JAVA_OPTS");
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Path out = Files.createTempFile(dir, "script", ".out");
    builder.redirectOutput(out.toFile());
    Process process = builder.start();
    if (!process.waitFor(240, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError("the script did not finish in 240 s; its output: "
          + new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1));
    }
    return new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1);
  }

  /**
   * Whether the JVM (the launcher exec's it in its own process) has a thread waiting in a pipe's
   * read. Before the exec the launcher is bash, whose command substitutions wait in pipe_read too:
   * a SIGTERM then ended bash with 143 and nothing said (seen once in CI).
   */
  static boolean readingAPipe(long pid) throws IOException {
    try {
      if (!Files.readString(Path.of("/proc/" + pid + "/comm")).trim().equals("java")) {
        return false;
      }
    } catch (NoSuchFileException exited) {
      return false;
    }
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          if (Files.readString(task.resolve("wchan")).trim().endsWith("pipe_read")) {
            return true;
          }
        } catch (IOException gone) {
          // the thread ended meanwhile
        }
      }
    } catch (NoSuchFileException exited) {
      return false;
    }
    return false;
  }
}
