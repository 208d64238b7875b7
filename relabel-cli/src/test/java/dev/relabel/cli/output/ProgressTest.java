package dev.relabel.cli.output;

import dev.relabel.cli.Cli;
import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Progress, in-process: {@code -p}'s text where standard output is not a terminal (byte for byte
 * what Debian's setfiles prints), the live bar when asked for, and silence otherwise. The bar on
 * a real terminal is ProgressBarIT's.
 */
class ProgressTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  /** Entries under srv, srv itself included: a little over two of setfiles' 1024-entry steps. */
  private static final int ENTRIES = 2501;

  /** One tree for every test: they only read it (-n). */
  @TempDir
  static Path dir;
  private static Path root;
  private static Path spec;

  @BeforeAll
  static void tree() throws Exception {
    spec = Files.writeString(dir.resolve("file_contexts"), "/srv(/.*)?\t" + ETC + "\n");
    root = dir.resolve("root");
    for (int d = 0; d < 25; d++) {
      Path sub = Files.createDirectories(root.resolve("srv/d" + d));
      for (int f = 0; f < 99; f++) {
        Files.createFile(sub.resolve("f" + f));
      }
    }
  }

  private Cli.Result setfiles(String... options) {
    List<String> args = Trees.list("setfiles", "-n");
    args.addAll(List.of(options));
    args.addAll(List.of("-r", root.toString(), spec.toString(), root + "/srv"));
    return Cli.run(Trees.array(args));
  }

  @Test
  void dashPPrintsWhatSetfilesPrints() throws Exception {
    AttrTrees.requireTools(true);
    Cli.Result ours = setfiles("-p");
    AttrTrees.Run reference = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-n", "-p", "-r", root.toString(),
        spec.toString(), root + "/srv"), dir);
    assertEquals(0, reference.status(), reference::toString);
    assertEquals("\r1k\r2k\n", reference.out(), "the reference changed: " + reference);
    assertEquals(reference.out(), ours.outLatin1(), ours::toString);
    assertEquals(reference.err(), ours.err());
    assertEquals(0, ours.status());
  }

  @Test
  void dashPCountsOnlyTheEntriesThePolicyLabels() throws Exception {
    // libselinux counts an entry after its lookup found a context: not those no spec labels.
    AttrTrees.requireTools(true);
    Path noneSpec = Files.writeString(dir.resolve("file_contexts.none"),
        "/srv(/.*)?\t" + ETC + "\n/srv/d1[0-9](/.*)?\t<<none>>\n"); // 1,000 of the 2,501 entries
    Cli.Result ours = Cli.run("setfiles", "-n", "-p", "-r", root.toString(), noneSpec.toString(), root + "/srv");
    AttrTrees.Run reference = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-n", "-p", "-r", root.toString(),
        noneSpec.toString(), root + "/srv"), dir);
    assertEquals(0, reference.status(), reference::toString);
    assertEquals("\r1k\n", reference.out(), "the reference changed: " + reference);
    assertEquals(reference.out(), ours.outLatin1(), ours::toString);
    assertEquals(0, ours.status(), ours::toString);
  }

  @Test
  void theBarIsDrawnWhenAskedForAndEndsAtTheExactCount() {
    Cli.Result r = setfiles("--progress");
    assertEquals(0, r.status(), r::toString);
    assertEquals(0, r.out().length, r::toString);
    String err = r.err();
    assertTrue(err.endsWith("\n"), r::toString);
    String[] draws = err.substring(0, err.length() - 1).split("\r");
    String last = draws[draws.length - 1];
    assertTrue(last.startsWith("setfiles 100%") && last.contains(" " + ENTRIES + "/" + ENTRIES + " entries"),
        () -> "last draw: " + last + "\nall: " + err);
    // Each draw replaces the line: carriage return, the bar, then erase-to-end-of-line.
    assertTrue(err.startsWith("\rsetfiles ") && last.endsWith("\u001b[K"), err);
  }

  @Test
  void silentWhenNothingIsATerminal() {
    Cli.Result r = setfiles();
    assertEquals(0, r.status(), r::toString);
    assertEquals("", r.err());
    assertEquals(0, r.out().length);
    Cli.Result never = setfiles("-p", "--no-progress");
    assertEquals("", never.err() + never.outLatin1());
  }

  @Test
  void dashPWithDashVIsAUsageErrorAsInSetfiles() {
    Cli.Result r = setfiles("-p", "-v");
    assertEquals(255, r.status());
    assertEquals(List.of("relabel: -p and -v are mutually exclusive (progress and verbose), as in setfiles"
        + " (see 'relabel setfiles --help')"), r.errLines());
    assertEquals(0, r.out().length);
  }

  @Test
  void progressTakesNoValue() {
    Cli.Result r = setfiles("--progress=always");
    assertEquals(255, r.status());
    assertEquals(List.of("relabel: Unknown option: '--progress=always' (see 'relabel setfiles --help')"), r.errLines());
  }

  @Test
  void withJsonTheSetfilesTextGoesToStandardError() {
    Cli.Result r = setfiles("-p", "--json");
    assertEquals(0, r.status(), r::toString);
    assertEquals("\r1k\r2k\n", r.err());
    String out = new String(r.out(), StandardCharsets.UTF_8);
    assertEquals(ENTRIES, JsonMapper.builder().build().readTree(out).get("counts").get("visited").asLong());
    assertFalse(out.contains("\r"));
  }
}
