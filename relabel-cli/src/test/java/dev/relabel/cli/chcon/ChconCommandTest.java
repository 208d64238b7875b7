package dev.relabel.cli.chcon;

import dev.relabel.cli.Cli;
import dev.relabel.cli.JsonReports;
import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code relabel chcon} against coreutils' {@code chcon} on the cases around the walk: symlinks
 * given with and without {@code -h} and {@code -R}, dangling ones, missing files, trailing
 * slashes, {@code --reference} that cannot be read, usage errors; then what only relabel has
 * ({@code --json}, {@code -H}/{@code -L} refused). Each case runs on two identical small trees:
 * same status, same lines (each tree's path read as ROOT), same labels after.
 */
class ChconCommandTest {
  private static final String CHCON = "/usr/bin/chcon";
  private static final String L1 = "system_u:object_r:etc_t:s0";
  private static final String L2 = "staff_u:object_r:tmp_t:s0:c1";
  private static final Map<String, String> UTF8 = Map.of("LC_ALL", "C.UTF-8");

  @TempDir
  Path dir;
  private Path theirs;
  private Path ours;

  @BeforeEach
  void trees() throws Exception {
    AttrTrees.requireTools(false);
    if (!Files.isExecutable(Path.of(CHCON))) {
      AttrTrees.unavailable(CHCON + " is missing (apt-get install coreutils)");
    }
    theirs = tree(dir.resolve("theirs"));
    ours = tree(dir.resolve("ours"));
  }

  private Path tree(Path root) throws Exception {
    Files.createDirectories(root.resolve("dir/sub"));
    Files.writeString(root.resolve("dir/f"), "");
    Files.writeString(root.resolve("dir/sub/g"), "");
    Files.createSymbolicLink(root.resolve("dir/link"), Path.of("f"));
    Files.createSymbolicLink(root.resolve("dir/dangling"), Path.of("nowhere"));
    Files.createSymbolicLink(root.resolve("dir/linkdir"), Path.of("sub"));
    AttrTrees.setLabel(root.resolve("dir"), L1, dir);
    AttrTrees.setLabel(root.resolve("dir/f"), L1, dir);
    AttrTrees.setLabel(root.resolve("dir/sub"), L2, dir);
    AttrTrees.setLabel(root.resolve("dir/link"), L2, dir);
    AttrTrees.setLabel(root.resolve("dir/dangling"), L2, dir);
    AttrTrees.setLabel(root.resolve("dir/linkdir"), L1, dir);
    return root;
  }

  /** Runs chcon and relabel chcon with ARGS, ROOT in each read as that side's tree; asserts the same outcome. */
  private Run same(String... args) throws Exception {
    List<String> command = Trees.list(CHCON);
    List<String> ourCommand = Trees.list("chcon");
    for (String arg : args) {
      command.add(arg.replace("ROOT", theirs.toString()));
      ourCommand.add(arg.replace("ROOT", ours.toString()));
    }
    Run chcon = AttrTrees.run(command, dir, null, UTF8);
    Run relabel = Trees.relabel(ourCommand);
    ChconDifferentialTest.assertSameRun(chcon, theirs, relabel, ours);
    assertEquals(AttrTrees.labels(theirs, dir), AttrTrees.labels(ours, dir), () -> "labels after " + List.of(args));
    return relabel;
  }

  @Test
  void aSymlinkGivenIsFollowedUnlessNoDereference() throws Exception {
    Run followed = same("-v", "-t", "bin_t", "ROOT/dir/link");
    assertEquals("system_u:object_r:bin_t:s0", AttrTrees.label(ours.resolve("dir/f"), dir), followed::toString);
    Run itself = same("-v", "-h", "-u", "user_u", "ROOT/dir/link");
    assertEquals("user_u:object_r:tmp_t:s0:c1", AttrTrees.label(ours.resolve("dir/link"), dir), itself::toString);
    same("-v", "--dereference", "-h", "-r", "a_r", "ROOT/dir/link", "ROOT/dir/linkdir");
    same("-v", "-h", "--dereference", "-r", "b_r", "ROOT/dir/link", "ROOT/dir/linkdir");
  }

  @Test
  void aDanglingSymlinkOrAMissingFileFails() throws Exception {
    assertEquals(1, same("-v", "-t", "bin_t", "ROOT/dir/dangling", "ROOT/dir/f").status());
    assertEquals(1, same("-v", L2, "ROOT/dir/dangling").status());
    assertEquals(1, same("-v", "-t", "bin_t", "ROOT/missing", "ROOT/dir/f").status());
    assertEquals(1, same("-R", "-v", L2, "ROOT/missing/x", "ROOT/dir/f/x").status());
    assertEquals(0, same("-R", "-v", "-h", "-t", "bin_t", "ROOT/dir/dangling").status());
  }

  @Test
  void anOptionGivenTwiceTakesItsLastValueAsGetopt() throws Exception {
    Run twice = same("-v", "-v", "-t", "bin_t", "-t", "usr_t", "ROOT/dir/f");
    assertEquals(0, twice.status(), twice::toString);
    assertEquals("system_u:object_r:usr_t:s0", AttrTrees.label(ours.resolve("dir/f"), dir), twice::toString);
    same("-R", "--recursive", "-r", "a_r", "ROOT/dir");
  }

  @Test
  void aFileBeneathASymlinkToADirectoryIsLabelled() throws Exception {
    // The path's directory part is resolved as any path's: "linkdir/g" is sub/g (it failed with
    // "Not a directory": the directory holding the operand was opened without following a symlink).
    Run run = same("-v", L2, "ROOT/dir/linkdir/g");
    assertEquals(0, run.status(), run::toString);
    same("-R", "-v", "-h", "-u", "user_u", "ROOT/dir/linkdir/g", "ROOT/dir/linkdir/../linkdir/g");
  }

  @Test
  void longOptionsMayBeCutToAPrefixAndAValueMayBeginWithADashAsGetopt() throws Exception {
    // getopt_long: a unique prefix names its option ("--verb", "--ref", "--no-d"); getopt: the
    // option's value is the next argument whatever it begins with ("-t -x_t").
    same("--verb", "--ty", "bin_t", "ROOT/dir/f");
    same("--verbose", "--ref", "ROOT/dir/f", "--no-d", "ROOT/dir/link");
    same("-v", "-t", "-x_t", "ROOT/dir/f");
    // Several options begin so: both refuse the run, changing nothing.
    List<String> command = Trees.list(CHCON, "--ver", "-t", "usr_t", theirs.resolve("dir/f").toString());
    Run chcon = AttrTrees.run(command, dir, null, UTF8);
    Run relabel = Trees.relabel(Trees.list("chcon", "--ver", "-t", "usr_t", ours.resolve("dir/f").toString()));
    assertEquals(1, chcon.status(), chcon::toString);
    assertEquals(1, relabel.status(), relabel::toString);
    assertTrue(relabel.err().startsWith("relabel: option '--ver' is ambiguous; possibilities: '--verbose' '--version'"), relabel::toString);
    assertEquals(AttrTrees.labels(theirs, dir), AttrTrees.labels(ours, dir));
  }

  @ParameterizedTest(name = "chcon {0} -v with an empty operand and operands with a trailing slash")
  @ValueSource(strings = {"-P", "-R"})
  void anEmptyOperandIsNoFileAndASlashNeedsADirectory(String traversal) throws Exception {
    // '' is no file (never the working directory); "file/" and "link-to-file/" are ENOTDIR and
    // "dangling/" ENOENT, all without a change; "dir/" and "link-to-dir/" are the directory.
    Run run = same(traversal, "-v", L2, "", "ROOT/dir/f/", "ROOT/dir/link/", "ROOT/dir/dangling/", "ROOT/dir/sub/",
        "ROOT/dir/linkdir/", "ROOT/dir/f");
    assertEquals(1, run.status(), run::toString);
    assertTrue(run.err().contains("cannot access ''"), run::toString);
  }

  @Test
  void recursingLabelsSymlinksThemselves() throws Exception {
    same("-R", "-v", "-t", "bin_t", "ROOT/dir/linkdir");
    same("-R", "-v", "-t", "var_t", "ROOT/dir");
    same("-R", "-P", "-v", "-l", "s0-s0:c0.c1023", "ROOT/dir");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ROOT/dir/", "ROOT/dir//", "ROOT//dir", "ROOT/dir/.", "ROOT/dir/sub/..", "ROOT/dir/linkdir/"})
  void rootsAreShownAsGiven(String root) throws Exception {
    same("-R", "-v", "unconfined_u:object_r:var_t:s0", root);
    same("-R", "-v", "-t", "usr_t", root);
  }

  @Test
  void referenceTakesAFilesContextFollowingSymlinks() throws Exception {
    Run unlabeled = same("--reference=ROOT/dir/sub/g", "ROOT/dir/f");
    assertEquals(1, unlabeled.status());
    assertTrue(unlabeled.err().contains("No data available"), unlabeled::toString);
    same("-v", "--reference=ROOT/dir/link", "ROOT/dir/sub/g", "ROOT/dir/sub");
    assertEquals(L1, AttrTrees.label(ours.resolve("dir/sub/g"), dir));
    assertEquals(1, same("--reference=ROOT/missing", "ROOT/dir/f").status());
  }

  @Test
  void usageErrorsExitOneAndChangeNothing() throws Exception {
    Map<String, String> before = AttrTrees.labels(ours, dir);
    for (List<String> args : List.of(List.<String>of(), List.of(L1), List.of("-t", "bin_t"),
        List.of("-R", "--dereference", "-t", "bin_t", "ROOT"), List.of("-R", "-h", "-L", "-t", "bin_t", "ROOT"),
        List.of("--reference=ROOT/dir/f", "-t", "bin_t", "ROOT/dir"), List.of("--no-such-option", "ROOT"))) {
      List<String> command = Trees.list(CHCON);
      List<String> ourCommand = Trees.list("chcon");
      args.forEach(arg -> command.add(arg.replace("ROOT", theirs.toString())));
      args.forEach(arg -> ourCommand.add(arg.replace("ROOT", ours.toString())));
      Run chcon = AttrTrees.run(command, dir, null, UTF8);
      Run relabel = Trees.relabel(ourCommand);
      assertEquals(chcon.status(), relabel.status(), () -> args + "\n--- chcon\n" + chcon + "\n--- ours\n" + relabel);
      assertEquals(1, relabel.status(), relabel::toString);
      assertTrue(relabel.err().startsWith("relabel: "), relabel::toString);
      assertEquals("", relabel.out());
    }
    assertEquals(before, AttrTrees.labels(ours, dir));
  }

  /** -H and -L would follow symlinks out of the tree: refused, where chcon follows them. */
  @Test
  void followingSymlinksUnderRecursionIsRefused() throws Exception {
    Map<String, String> before = AttrTrees.labels(ours, dir);
    for (String flag : List.of("-H", "-L")) {
      Run r = Trees.relabel(List.of("chcon", "-R", flag, "-t", "bin_t", ours.toString()));
      assertEquals(1, r.status(), r::toString);
      assertTrue(r.err().contains(flag + " is not supported"), r::toString);
    }
    // The last of -H, -L, -P wins, as in chcon.
    assertEquals(0, Trees.relabel(List.of("chcon", "-R", "-L", "-P", L2, ours + "/dir/sub")).status());
    assertEquals(0, AttrTrees.run(List.of(CHCON, "-R", "-L", "-P", L2, theirs + "/dir/sub"), dir).status());
    assertEquals(AttrTrees.labels(theirs, dir), AttrTrees.labels(ours, dir));
    assertTrue(!before.equals(AttrTrees.labels(ours, dir)));
  }

  @Test
  void jsonReportsCountsChangesAndErrors() throws Exception {
    Cli.Result r = Cli.run("chcon", "-R", "-v", "--json", "-t", "bin_t", ours + "/dir", ours + "/missing");
    String out = new String(r.out(), StandardCharsets.UTF_8);
    JsonNode report = JsonReports.of(r);
    assertEquals("chcon", report.get("command").asString());
    assertEquals(1, report.get("exitStatus").asInt());
    assertEquals(1, r.status());
    JsonNode counts = report.get("counts");
    // dir, f, link, dangling, linkdir, sub; sub/g has no label: a partial change of it fails.
    assertEquals(7, counts.get("visited").asLong(), out);
    assertEquals(6, counts.get("relabeled").asLong(), out);
    assertEquals(2, counts.get("errors").asLong(), out);
    assertEquals(6, report.get("changes").size(), out);
    List<String> messages = new ArrayList<>();
    report.get("messages").forEach(m -> messages.add(m.get("text").asString()));
    assertTrue(messages.contains("relabel: can't apply partial context to unlabeled file 'g'"), out);
    assertTrue(messages.contains("relabel: cannot access '" + ours + "/missing': No such file or directory"), out);
    // With --json the -v lines go to standard error: standard output holds the report alone.
    assertTrue(r.err().contains("changing security context of '" + ours + "/dir/sub/g'\n"), r::toString);

    Cli.Result again = Cli.run("chcon", "-R", "--json", "--summary", "-t", "bin_t", ours + "/dir");
    JsonNode second = JsonMapper.builder().build().readTree(new String(again.out(), StandardCharsets.UTF_8));
    assertEquals(0, second.get("counts").get("relabeled").asLong(), again::toString);
    assertTrue(again.err().contains("relabel chcon: 7 entries, 0 changed, 1 failed, "), again::toString);
  }
}
