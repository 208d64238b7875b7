package dev.relabel.cli;

import dev.relabel.cli.common.Io;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.oracle.Oracles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code package} generates beside relabel.jar from the command model: a man page per verb
 * in {@code target/man/man1} and the bash completion script {@code target/completion/relabel}.
 * The verbs are RelabelCommand's, so a verb added there is checked here with no change.
 */
class DocsIT {
  private static Path target;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    String jar = System.getProperty("relabel.jar");
    if (jar == null && !Oracles.inCi()) {
      Assumptions.abort("DocsIT runs under maven-failsafe-plugin (mvn verify), which sets relabel.jar");
    }
    assertTrue(jar != null, "relabel.jar is not set (run by failsafe)");
    target = Path.of(jar).toAbsolutePath().getParent();
  }

  /** Every verb of relabel, as the command line knows them. */
  private static Set<String> verbs() {
    Io io = new Io(java.io.InputStream.nullInputStream(), new ByteArrayOutputStream(), new ByteArrayOutputStream(),
        StandardCharsets.UTF_8);
    return RelabelCommand.commandLine(io).getSubcommands().keySet();
  }

  @Test
  void eachVerbHasAManPage() throws IOException {
    Path man = target.resolve("man/man1");
    String top = Files.readString(man.resolve("relabel.1"));
    assertTrue(top.contains(".TH \"RELABEL\" \"1\""), top);
    // The version the pages are of, in their header's footer.
    assertTrue(top.contains("\"relabel " + System.getProperty("relabel.version").replace("-", "\\-") + "\""), top);
    for (String verb : verbs()) {
      Path page = man.resolve("relabel-" + verb + ".1");
      assertTrue(Files.isRegularFile(page), page + " is missing");
      String text = Files.readString(page);
      assertTrue(text.contains(".TH \"RELABEL\\-" + verb.toUpperCase(java.util.Locale.ROOT) + "\" \"1\""),
          () -> page + " has no man page header:\n" + text);
      assertTrue(text.contains("relabel " + verb), () -> page + " does not show its synopsis");
      assertTrue(top.contains(verb), () -> "relabel.1 does not list " + verb);
    }
    String setfiles = Files.readString(man.resolve("relabel-setfiles.1"));
    for (String option : List.of("\\-\\-json", "\\-\\-[no\\-]progress", "\\-p")) {
      assertTrue(setfiles.contains(option), () -> "relabel-setfiles.1 lacks " + option);
    }
  }

  @Test
  void bashCompletesEachVerbAndTheirOptions() throws Exception {
    Path script = target.resolve("completion/relabel");
    assertTrue(Files.isRegularFile(script), script + " is missing");
    List<String> verbs = complete(script, "relabel", "");
    assertEquals(new java.util.TreeSet<>(verbs()), new java.util.TreeSet<>(verbs));
    assertEquals(List.of("--json"), complete(script, "relabel", "setfiles", "--js"));
    assertEquals(List.of("--json"), complete(script, "relabel", "lookup", "--js"));
  }

  /** What bash's completion offers for the last word, run by the generated function. */
  private List<String> complete(Path script, String... words) throws Exception {
    StringBuilder array = new StringBuilder();
    for (String word : words) {
      array.append(" '").append(word).append('\'');
    }
    String program = "source \"$1\"; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
        + "; COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; _complete_relabel relabel '"
        + words[words.length - 1] + "' '" + words[words.length - 2] + "' 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
    Path err = Files.createTempFile(dir, "bash", ".err");
    Process bash = new ProcessBuilder("bash", "-c", program, "bash", script.toString())
        .redirectError(err.toFile()).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, bash.waitFor(), () -> out + readQuietly(err));
    List<String> offered = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (!line.isBlank()) {
        offered.add(line.trim());
      }
    }
    return offered;
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }
}
