package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live progress bar on a real terminal: {@code bin/relabel setfiles} run inside a
 * pseudo-terminal by util-linux's {@code script}, whose transcript is what the terminal was sent.
 */
class ProgressBarIT {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final int ENTRIES = 2501;
  private static final Path SCRIPT = Path.of("/usr/bin/script");

  private static Path launcher;

  /** One tree for every test: they only read it (-n). */
  @TempDir
  static Path dir;
  private static Path root;
  private static Path spec;

  @BeforeAll
  static void locate() {
    launcher = LauncherScript.launcher("ProgressBarIT");
    if (!Files.isExecutable(SCRIPT)) {
      String missing = SCRIPT + " is missing (apt-get install bsdutils): no pseudo-terminal to test the bar in";
      AttrTrees.unavailable(missing);
    }
  }

  @BeforeEach
  void tree() throws IOException {
    if (root != null) {
      return;
    }
    spec = Files.writeString(dir.resolve("file_contexts"), "/srv(/.*)?\t" + ETC + "\n");
    root = dir.resolve("root");
    for (int d = 0; d < 25; d++) {
      Path sub = Files.createDirectories(root.resolve("srv/d" + d));
      for (int f = 0; f < 99; f++) {
        Files.createFile(sub.resolve("f" + f));
      }
    }
  }

  private record Run(int status, String out, String err) {
    @Override
    public String toString() {
      return "status " + status + "\n--- out\n" + out.replace("\r", "<CR>\n") + "--- err\n" + err;
    }
  }

  /** Runs {@code command}, standard input from /dev/null, both outputs to files. */
  private Run run(List<String> command) throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", "");
    Path err = Files.createTempFile(dir, "err", "");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(Path.of("/dev/null").toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("TERM", "xterm");
    builder.environment().remove("RELABEL_JAVA_OPTS");
    int status = builder.start().waitFor();
    return new Run(status, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private List<String> setfiles(String... options) {
    List<String> command = new ArrayList<>(List.of(launcher.toString(), "setfiles", "-n"));
    command.addAll(List.of(options));
    command.addAll(List.of("-r", root.toString(), spec.toString(), root + "/srv"));
    return command;
  }

  /** {@code command} inside a pseudo-terminal: script -q (quiet) -f (flush) -e (its status) -c. */
  private Run onTerminal(List<String> command) throws IOException, InterruptedException {
    StringBuilder line = new StringBuilder();
    for (String word : command) {
      line.append(line.length() == 0 ? "" : " ").append('\'').append(word.replace("'", "'\\''")).append('\'');
    }
    return run(List.of(SCRIPT.toString(), "-qfec", line.toString(), "/dev/null"));
  }

  /** The bar's draws, in order: the transcript split at carriage returns, kept where a bar is. */
  private static List<String> draws(String transcript) {
    List<String> draws = new ArrayList<>();
    for (String part : transcript.split("\r")) {
      if (part.startsWith("setfiles ") && part.contains(" entries")) {
        draws.add(part);
      }
    }
    return draws;
  }

  @Test
  void theBarIsDrawnOnATerminalAndEndsAt100Percent() throws Exception {
    Run r = onTerminal(setfiles());
    assertEquals(0, r.status(), r::toString);
    List<String> draws = draws(r.out());
    assertFalse(draws.isEmpty(), r::toString);
    String last = draws.get(draws.size() - 1);
    assertTrue(last.startsWith("setfiles 100%") && last.contains(ENTRIES + "/" + ENTRIES + " entries"),
        () -> "last draw: " + last + "\n" + r);
    assertTrue(last.contains(" entries/s"), last);
    // The bar's line is ended once the run is over (the terminal turns \n into \r\n).
    assertTrue(r.out().endsWith("\u001b[K\r\n"), r::toString);
  }

  @Test
  void dashPOnATerminalIsTheBarNotSetfilesText() throws Exception {
    Run r = onTerminal(setfiles("-p"));
    assertEquals(0, r.status(), r::toString);
    assertFalse(r.out().contains("\r1k"), r::toString);
    List<String> draws = draws(r.out());
    assertTrue(!draws.isEmpty() && draws.get(draws.size() - 1).startsWith("setfiles 100%"), r::toString);
  }

  @Test
  void noBarWhenNothingIsATerminal() throws Exception {
    Run r = run(setfiles());
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.out() + r.err());
  }
}
