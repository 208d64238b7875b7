package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code RELABEL_THREADS} as the default {@code -T} of the verbs that walk: the thread count a
 * run used is what its {@code --json} report says in {@code threads}. -T on the command line wins
 * (a bad RELABEL_THREADS is then not read), unset or empty leaves the verb's own default, and a
 * bad value is the verb's usage error, naming the variable. The environment is handed to the
 * in-process command ({@code Io}'s), never set on this JVM.
 */
class ThreadsEnvironmentTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";

  @TempDir
  Path dir;
  private Path spec;
  private Path tree;

  @BeforeEach
  void tree() throws Exception {
    spec = Files.writeString(dir.resolve("file_contexts"), dir + "/tree(/.*)?\t" + ETC + "\n");
    tree = dir.resolve("tree");
    Files.createDirectories(tree.resolve("a/b"));
    Files.writeString(tree.resolve("a/file"), "");
  }

  /** The verb's arguments before -T (if any) and after it; dry runs where the verb has one. */
  private List<String> command(String verb, List<String> threads) {
    List<String> args = new ArrayList<>(List.of(verb, "--json"));
    args.addAll(threads);
    switch (verb) {
      case "setfiles" -> args.addAll(List.of("-n", spec.toString(), tree.toString()));
      case "restorecon" -> args.addAll(List.of("-n", "-R", tree.toString()));
      case "chcon" -> args.addAll(List.of("-R", ETC, tree.toString()));
      default -> throw new IllegalArgumentException(verb);
    }
    return args;
  }

  private static Cli.Result run(Map<String, String> environment, List<String> args) {
    return Cli.run(environment, args.toArray(String[]::new));
  }

  /** The report's {@code threads}, after checking the report against its schema. */
  private static int threads(Cli.Result result) {
    JsonNode report = JsonReports.of(result);
    assertTrue(report.has("threads"), result::toString);
    return report.get("threads").asInt();
  }

  private static int usageStatus(String verb) {
    return verb.equals("chcon") ? 1 : 255;
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles", "restorecon", "chcon"})
  void relabelThreadsIsTheDefaultOfMinusT(String verb) {
    Cli.Result two = run(Map.of("RELABEL_THREADS", "2"), command(verb, List.of()));
    assertEquals(0, two.status(), two::toString);
    assertEquals(2, threads(two), two::toString);
    Cli.Result three = run(Map.of("RELABEL_THREADS", "3"), command(verb, List.of()));
    assertEquals(3, threads(three), three::toString);
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles", "restorecon", "chcon"})
  void minusTOnTheCommandLineWins(String verb) throws Exception {
    Cli.Result one = run(Map.of("RELABEL_THREADS", "2"), command(verb, List.of("-T", "1")));
    assertEquals(0, one.status(), one::toString);
    assertEquals(1, threads(one), one::toString);
    // A bad RELABEL_THREADS is not read when -T is given.
    Cli.Result overridden = run(Map.of("RELABEL_THREADS", "x"), command(verb, List.of("-T", "2")));
    assertEquals(0, overridden.status(), overridden::toString);
    assertEquals(2, threads(overridden), overridden::toString);
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles", "restorecon", "chcon"})
  void unsetOrEmptyLeavesTheVerbsDefault(String verb) throws Exception {
    Cli.Result unset = run(Map.of(), command(verb, List.of()));
    assertEquals(0, unset.status(), unset::toString);
    assertEquals(1, threads(unset), unset::toString);
    Cli.Result empty = run(Map.of("RELABEL_THREADS", ""), command(verb, List.of()));
    assertEquals(0, empty.status(), empty::toString);
    assertEquals(1, threads(empty), empty::toString);
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles", "restorecon", "chcon"})
  void aBadValueIsTheVerbsUsageErrorNamingTheVariable(String verb) {
    for (String bad : List.of("x", "-1", " 2", "2x")) {
      Cli.Result result = run(Map.of("RELABEL_THREADS", bad), command(verb, List.of()));
      assertEquals(usageStatus(verb), result.status(), result::toString);
      assertTrue(result.err().startsWith("relabel: invalid thread count in RELABEL_THREADS: '" + bad + "'"),
          result::toString);
    }
    Cli.Result many = run(Map.of("RELABEL_THREADS", "40000"), command(verb, List.of()));
    assertEquals(usageStatus(verb), many.status(), many::toString);
    assertTrue(many.err().startsWith("relabel: too many threads in RELABEL_THREADS: 40000 (at most 32767)"),
        many::toString);
    // As a bad -T is worded: the same check, another source.
    Cli.Result dashT = run(Map.of(), command(verb, List.of("-T", "x")));
    assertEquals(usageStatus(verb), dashT.status(), dashT::toString);
    assertTrue(dashT.err().startsWith("relabel: invalid thread count for -T: 'x'"), dashT::toString);
  }

  @ParameterizedTest
  @ValueSource(strings = {"setfiles", "restorecon", "chcon", "restore", "check", "verify", "relabel", "autorelabel",
      "plan", "tar", "demo"})
  void everyVerbsHelpSaysTheDefault(String verb) {
    Cli.Result help = Cli.run(verb, "--help");
    assertEquals(0, help.status(), help::toString);
    String text = help.outLatin1().replaceAll("\\s+", " ");
    assertTrue(text.contains("$RELABEL_THREADS, else "), text);
    assertFalse(text.contains("${"), text);
  }
}
