package dev.relabel.cli.setfiles;

import dev.relabel.cli.Cli;
import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code relabel setfiles} in-process on small trees: its help, usage errors, refused flags, exit
 * statuses and output lines, spelled out (SetfilesReferenceTest checks the same against the real
 * setfiles where it is installed). Labels are set and read with the attr package's tools.
 */
class SetfilesCommandTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final String BIN = "system_u:object_r:bin_t:s0";
  private static final String TMP = "system_u:object_r:tmp_t:s0";

  @TempDir
  Path dir;
  private Path root;
  private Path spec;

  @BeforeEach
  void tree() throws Exception {
    AttrTrees.requireTools(false);
    spec = Files.writeString(dir.resolve("file_contexts"),
        "/srv(/.*)?\t" + ETC + "\n/srv/bin(/.*)?\t" + BIN + "\n/srv/keep\t--\t<<none>>\n");
    root = dir.resolve("root");
    Files.createDirectories(root.resolve("srv/bin"));
    Files.writeString(root.resolve("srv/file"), "");
    Files.writeString(root.resolve("srv/keep"), "");
    Files.writeString(root.resolve("srv/bin/tool"), "");
    AttrTrees.setLabel(root.resolve("srv/file"), TMP, dir);
    AttrTrees.setLabel(root.resolve("srv/bin/tool"), "staff_u:object_r:tmp_t:s0-s0:c1", dir);
  }

  private Run setfiles(String... args) {
    List<String> command = Trees.list("setfiles");
    command.addAll(List.of(args));
    return Trees.relabel(command);
  }

  private String label(String relative) throws Exception {
    return AttrTrees.label(root.resolve(relative), dir);
  }

  private String r(String relative) {
    return root + "/" + relative;
  }

  @Test
  void helpDescribesOptionsOutputAndStatuses() {
    for (List<String> args : List.of(List.of("setfiles", "--help"), List.of("setfiles", "-h"), List.of("help", "setfiles"))) {
      Run run = Trees.relabel(args);
      assertEquals(0, run.status(), run::toString);
      assertTrue(run.out().startsWith("Usage: relabel setfiles "), run::toString);
      for (String text : List.of("SPEC_FILE", "-F", "-n", "-v", "-e  DIR", "-r, -R ROOT", "-T  N", "-C", "Relabeled PATH from OLD to NEW",
          "Would relabel", "Exit status", "255", "130  stopped by SIGINT, 143 stopped by SIGTERM", "Not supported")) {
        assertTrue(run.out().contains(text), () -> "help lacks " + text + ":\n" + run.out());
      }
      assertEquals("", run.err());
    }
  }

  @Test
  void topLevelHelpListsSetfiles() {
    Run run = Trees.relabel(List.of("--help"));
    assertTrue(run.out().contains("setfiles"), run::toString);
  }

  @Test
  void dryRunPrintsWhatWouldChangeAndChangesNothing() throws Exception {
    Run run = setfiles("-n", "-v", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(0, run.status(), run::toString);
    assertEquals(Set.of(
        "Would relabel " + r("srv") + " from (null) to " + ETC,
        "Would relabel " + r("srv/file") + " from " + TMP + " to " + ETC,
        "Would relabel " + r("srv/bin") + " from (null) to " + BIN,
        "Would relabel " + r("srv/bin/tool") + " from staff_u:object_r:tmp_t:s0-s0:c1 to staff_u:object_r:bin_t:s0-s0:c1"),
        run.outLines());
    assertEquals("", run.err());
    assertEquals(TMP, label("srv/file"));
    assertNull(label("srv"));
  }

  @Test
  void verboseRunPrintsEachChangeOnceAndForceSetsWholeContexts() throws Exception {
    Run run = setfiles("-v", "-T", "2", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(0, run.status(), run::toString);
    assertEquals(4, run.outLines().size(), run::toString);
    assertTrue(run.outLines().contains("Relabeled " + r("srv/file") + " from " + TMP + " to " + ETC), run::toString);
    assertEquals(ETC, label("srv/file"));
    assertEquals("staff_u:object_r:bin_t:s0-s0:c1", label("srv/bin/tool"));
    assertNull(label("srv/keep"));

    assertEquals(new TreeSet<>(), setfiles("-v", "-r", root.toString(), spec.toString(), r("srv")).outLines());

    Run forced = setfiles("-F", "-v", "-T", "0", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(Set.of("Relabeled " + r("srv/bin/tool") + " from staff_u:object_r:bin_t:s0-s0:c1 to " + BIN),
        forced.outLines());
    assertEquals(BIN, label("srv/bin/tool"));
  }

  @Test
  void withoutVerboseNothingIsPrinted() throws Exception {
    Run run = setfiles("-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(0, run.status(), run::toString);
    assertEquals("", run.out());
    assertEquals("", run.err());
    assertEquals(ETC, label("srv/file"));
  }

  @Test
  void aPathWithoutDefaultLabelIsNamed() {
    Run run = setfiles("-n", "-r", root.toString(), spec.toString(), r("srv/keep"), root.toString());
    assertEquals(0, run.status(), run::toString);
    assertEquals(Set.of("Warning no default label for /srv/keep", "Warning no default label for "), run.outLines());
  }

  @Test
  void missingPathIsFatalUnlessIgnored() throws Exception {
    Run missing = setfiles("-v", "-r", root.toString(), spec.toString(), r("srv/nope"), r("srv/file"));
    assertEquals(255, missing.status(), missing::toString);
    assertEquals("relabel: lstat(" + r("srv/nope") + ") failed: No such file or directory\n", missing.err());
    assertEquals(Set.of("Relabeled " + r("srv/file") + " from " + TMP + " to " + ETC), missing.outLines());

    Run ignored = setfiles("-i", "-v", "-r", root.toString(), spec.toString(), r("srv/nope"), r("nodir/x"));
    assertEquals(0, ignored.status(), ignored::toString);
    assertEquals("", ignored.out() + ignored.err());

    Run counted = setfiles("-C", "-v", "-r", root.toString(), spec.toString(), r("srv/nope"));
    assertEquals(255, counted.status(), "-C does not soften a missing path");
  }

  @Test
  void entryErrorsAre255Or1WithC() throws Exception {
    AttrTrees.setLabel(root.resolve("srv/file"), "garbage", dir);
    Run run = setfiles("-n", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(255, run.status(), run::toString);
    assertEquals("relabel: Could not set context for " + r("srv/file") + ":  Invalid argument\n", run.err());
    assertEquals(1, setfiles("-C", "-n", "-r", root.toString(), spec.toString(), r("srv")).status());
    Run outside = setfiles("-C", "-n", "-r", r("srv/bin"), spec.toString(), r("srv/file"));
    assertEquals(1, outside.status(), outside::toString);
    assertEquals("relabel: " + r("srv/file") + " is not located in alt_rootpath " + r("srv/bin") + "\n", outside.err());
  }

  @Test
  void badPolicyPrintsEachErrorExits1AndRelabelsNothing() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad"), "/srv(/.*)?\t" + ETC + "\n/srv/a\t-q\t" + BIN + "\n/srv/b\tnot_a_context\n");
    Run run = setfiles("-v", "-r", root.toString(), bad.toString(), r("srv"));
    assertEquals(1, run.status(), run::toString);
    assertEquals("", run.out());
    List<String> errors = run.err().lines().toList();
    assertEquals(2, errors.size(), run::toString);
    assertTrue(errors.get(0).startsWith("relabel: " + bad + ":2: "), run::toString);
    assertTrue(errors.get(1).startsWith("relabel: " + bad + ":3: "), run::toString);
    assertEquals(TMP, label("srv/file"));
    assertNull(label("srv"));

    Path duplicate = Files.writeString(dir.resolve("duplicate"), "/srv\t" + ETC + "\n/srv\t" + BIN + "\n");
    Run twice = setfiles("-v", "-r", root.toString(), duplicate.toString(), r("srv"));
    assertEquals(1, twice.status(), twice::toString);
    assertNull(label("srv"));
  }

  @Test
  void unusableSpecFileIs255() {
    Run missing = setfiles("-n", dir.resolve("nope").toString(), r("srv"));
    assertEquals(255, missing.status());
    assertEquals(dir.resolve("nope") + ": No such file or directory\n", missing.err());
    Run directory = setfiles("-n", dir.toString(), r("srv"));
    assertEquals(255, directory.status());
    assertEquals("relabel:  spec file " + dir + " is not a regular file.\n", directory.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "SPEC", "-Z SPEC PATH", "-T x SPEC PATH", "-T -1 SPEC PATH", "-T 99999 SPEC PATH",
      "-f LIST SPEC PATH", "-s SPEC PATH", "-r", "-v -e"})
  void usageErrorsAreOneLineAndStatus255(String args) throws Exception {
    Path list = Files.writeString(dir.resolve("list"), r("srv") + "\n");
    List<String> command = Trees.list("setfiles");
    for (String arg : args.split(" ")) {
      if (!arg.isEmpty()) {
        command.add(arg.replace("SPEC", spec.toString()).replace("PATH", r("srv")).replace("LIST", list.toString()));
      }
    }
    Run run = Trees.relabel(command);
    assertEquals(255, run.status(), run::toString);
    assertEquals("", run.out());
    assertEquals(1, run.err().lines().count(), run::toString);
    assertTrue(run.err().startsWith("relabel: ") && run.err().endsWith(" (see 'relabel setfiles --help')\n"), run::toString);
    assertEquals(TMP, label("srv/file"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-l", "-E", "-x", "-c policy.31"})
  void unsupportedFlagsAreRefusedWithAReason(String flag) throws Exception {
    List<String> command = Trees.list("setfiles");
    command.addAll(List.of(flag.split(" ")));
    command.addAll(List.of("-v", "-r", root.toString(), spec.toString(), r("srv")));
    Run run = Trees.relabel(command);
    assertEquals(255, run.status(), run::toString);
    assertEquals("", run.out());
    assertEquals(1, run.err().lines().count(), run::toString);
    String name = flag.split(" ")[0];
    assertTrue(run.err().startsWith("relabel: " + name + " ") && run.err().contains(flag.equals("-x") ? "restorecon's" : "not supported"),
        run::toString);
    assertEquals(TMP, label("srv/file"), "nothing relabelled");
  }

  @Test
  void harmlessFlagsAreAccepted() throws Exception {
    Run run = setfiles("-q", "-0", "-o", "out", "-m", "-A", "-j", "-U", "-v", "-r", root.toString(), spec.toString(), r("srv/file"));
    assertEquals(0, run.status(), run::toString);
    assertEquals("relabel: -o option no longer supported\n", run.err());
    assertEquals(Set.of("Relabeled " + r("srv/file") + " from " + TMP + " to " + ETC), run.outLines());
  }

  @Test
  void alternateRootChecks() {
    Run missing = setfiles("-n", "-r", r("nope"), spec.toString(), r("srv"));
    assertEquals(255, missing.status());
    assertEquals("Can't stat alt_root_path \"" + r("nope") + "\", No such file or directory\n", missing.err());
    Run slash = setfiles("-n", "-r", "/", spec.toString(), r("srv"));
    assertEquals(255, slash.status());
    assertEquals("relabel:  invalid alt_rootpath: /\n", slash.err());
    Run twice = setfiles("-n", "-r", root.toString(), "-R", root.toString(), spec.toString(), r("srv"));
    assertEquals(255, twice.status());
    assertEquals("relabel: only one -r can be specified\n", twice.err());
  }

  @Test
  void excludes() throws Exception {
    Run run = setfiles("-n", "-v", "-e", r("srv/bin/"), "-e", r("srv/file"), "-e", r("absent"), "-r", root.toString(),
        spec.toString(), r("srv"));
    assertEquals(0, run.status(), run::toString);
    assertEquals("Can't stat exclude path \"" + r("absent") + "\", No such file or directory - ignoring.\n", run.err());
    assertEquals(Set.of(
        "Would relabel " + r("srv") + " from (null) to " + ETC,
        "Would relabel " + r("srv/file") + " from " + TMP + " to " + ETC), run.outLines(), "only directories are excluded");

    Run relative = setfiles("-n", "-e", "src", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(255, relative.status());
    assertEquals("Full path required for exclude: src.\n", relative.err());
  }

  @Test
  void pathsFromAListGlobsAndStandardInput() throws Exception {
    Path list = Files.writeString(dir.resolve("list"), r("srv/fi*") + "\n" + r("srv/{bin,keep}") + "\n");
    Run fromList = setfiles("-n", "-v", "-r", root.toString(), spec.toString(), "-f", list.toString());
    assertEquals(0, fromList.status(), fromList::toString);
    assertEquals(4, fromList.outLines().size(), fromList::toString);
    assertTrue(fromList.outLines().contains("Warning no default label for /srv/keep"), fromList::toString);

    byte[] nul = (r("srv/file") + "\0" + r("srv/bin") + "\0").getBytes(StandardCharsets.UTF_8);
    Run fromStdin = Trees.relabel(nul, List.of("setfiles", "-n", "-v", "-0", "-r", root.toString(), "-s", spec.toString()));
    assertEquals(0, fromStdin.status(), fromStdin::toString);
    assertEquals(3, fromStdin.outLines().size(), fromStdin::toString);

    Run unreadable = setfiles("-n", spec.toString(), "-f", dir.resolve("nolist").toString());
    assertEquals(255, unreadable.status());
    assertEquals("Unable to open " + dir.resolve("nolist") + ": No such file or directory\n", unreadable.err());
  }

  @Test
  void pathBytesThatAreNotUtf8AreWrittenRaw() throws Exception {
    AttrTrees.touchRaw(root.resolve("srv"), "caf\u00e9\u00ff", dir);
    Cli.Result run = Cli.run(new byte[0], StandardCharsets.UTF_8,
        "setfiles", "-n", "-v", "-r", root.toString(), spec.toString(), r("srv"));
    assertEquals(0, run.status(), run::toString);
    assertTrue(run.lines().contains("Would relabel " + r("srv/caf\u00e9\u00ff") + " from (null) to " + ETC), run::toString);
  }
}
