package dev.relabel.cli.setfiles;

import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import dev.relabel.fixtures.oracle.Oracles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel setfiles -D} and {@code -I} against Debian's {@code setfiles}: the directory
 * digests ({@code security.sehash}) both store, the directories both skip
 * ("Skipping restorecon on directory(...)"), and the labels both leave, first on a scrambled tree
 * and then after a policy change that can reach one subtree only.
 *
 * <p>The tree lies under /srv, not in a temp directory, and no {@code -r} is given: setfiles 3.4
 * takes digests of the path as walked (with {@code -r} too, where ours take the path below the
 * alternate root), and under /srv Debian's policy has specs that tell subtrees apart
 * ({@code /srv/([^/]*\/)?www(/.*)?}, {@code ftp}, {@code rsync}). The tree is replayed at the same
 * path for each tool, since digests depend on it.
 */
class SetfilesDigestDifferentialTest {
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0", "system_u:object_r:bin_t:s0", "staff_u:object_r:etc_t:s0",
  };
  private static final List<String> DIRECTORIES = List.of(
      "www/html/site", "www/cgi-bin", "ftp/pub/mirror", "rsync/module", "other/data/deep", "other/logs");

  @TempDir Path scratch;
  private Path tree;
  private Path policy;
  private Path changedPolicy;
  private String scrambleDump;

  @BeforeEach
  void setUp() throws Exception {
    AttrTrees.requireTools(true);
    tree = Path.of("/srv", "relabel-digest-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    policy = copyPolicy("policy");
    changedPolicy = copyPolicy("changed");
    Files.writeString(changedPolicy.resolve("file_contexts.local"),
        "/srv/([^/]*/)?www/html(/.*)? system_u:object_r:httpd_sys_rw_content_t:s0\n");
    Path template = scratch.resolve("template");
    for (String directory : DIRECTORIES) {
      Files.createDirectories(template.resolve(directory));
      for (int i = 0; i < 3; i++) {
        Files.writeString(template.resolve(directory).resolve("file" + i), "");
      }
    }
    Random random = new Random(20261130);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String entry : AttrTrees.entries(template, scratch)) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      scramble.put(entry, choice < SCRAMBLED.length ? SCRAMBLED[choice] : null);
    }
    scrambleDump = AttrTrees.restoreDump(scramble);
    AttrTrees.check(List.of("cp", "-a", template.toString(), scratch.resolve("template-copy").toString()), scratch);
  }

  @AfterEach
  void removeTree() throws Exception {
    AttrTrees.run(List.of("rm", "-rf", "--", tree.toString()), scratch);
  }

  private Path copyPolicy(String name) throws Exception {
    Path directory = Files.createDirectories(scratch.resolve(name));
    Path files = Oracles.DEBIAN_FILE_CONTEXTS.getParent();
    for (String file : List.of("file_contexts", "file_contexts.homedirs", "file_contexts.subs_dist")) {
      if (Files.exists(files.resolve(file))) {
        Files.copy(files.resolve(file), directory.resolve(file));
      }
    }
    return directory;
  }

  /** The scrambled tree, made afresh at {@link #tree}. */
  private void scrambledTree() throws Exception {
    AttrTrees.run(List.of("rm", "-rf", "--", tree.toString()), scratch);
    AttrTrees.labelledCopy(scratch.resolve("template"), tree, scrambleDump, scratch);
  }

  private Run setfiles(Path policyDirectory, String... flags) throws Exception {
    List<String> command = Trees.list(AttrTrees.SETFILES.toString());
    command.addAll(List.of(flags));
    command.addAll(List.of(policyDirectory.resolve("file_contexts").toString(), tree.toString()));
    return AttrTrees.run(command, scratch);
  }

  private Run relabel(Path policyDirectory, String... flags) {
    List<String> command = Trees.list("setfiles");
    command.addAll(List.of(flags));
    command.addAll(List.of(policyDirectory.resolve("file_contexts").toString(), tree.toString()));
    return Trees.relabel(command);
  }

  /** Labels and digests of every entry, relative to the tree. */
  private Map<String, String> state() throws Exception {
    Map<String, String> labels = AttrTrees.labels(tree, scratch);
    Map<String, String> digests = AttrTrees.attributes(tree, "security.sehash", scratch);
    return labels.keySet().stream().collect(Collectors.toMap(entry -> entry,
        entry -> labels.get(entry) + " sehash=" + digests.get(entry), (a, b) -> a, java.util.TreeMap::new));
  }

  private static TreeSet<String> skipped(Run run) {
    return run.outLines().stream().filter(line -> line.startsWith("Skipping restorecon on directory("))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** -W's warnings, without the program's name. */
  private static TreeSet<String> unused(Run run, String program) {
    TreeSet<String> warnings = run.errLines().stream().filter(line -> line.startsWith(program + "Warning!  No matches"))
        .map(line -> line.substring(program.length())).collect(Collectors.toCollection(TreeSet::new));
    assertFalse(warnings.isEmpty(), run::toString);
    return warnings;
  }

  @Test
  void digestsSkipsAndLabelsAreSetfiles() throws Exception {
    // 1. A scrambled tree: both label everything and store the same digests.
    scrambledTree();
    Run reference = setfiles(policy, "-D");
    assertEquals(0, reference.status(), reference::toString);
    Map<String, String> expected = state();
    long digested = expected.values().stream().filter(v -> !v.endsWith("sehash=<none>")).count();
    long directories = expected.keySet().stream().filter(entry -> !entry.matches("(.*/)?file[0-9]")).count();
    assertEquals(directories, digested, "every directory should have a digest: " + expected);

    scrambledTree();
    Run ours = relabel(policy, "-D");
    assertEquals(0, ours.status(), ours::toString);
    assertEquals(expected, state());
    AttrTrees.check(List.of("cp", "-a", tree.toString(), scratch.resolve("labelled").toString()), scratch);

    // 2. Wrong labels in two subtrees and a policy change that reaches www/html only: both skip
    //    the same directories, relabel www/html, and leave other/logs wrong.
    String wrong = "system_u:object_r:tmp_t:s0";
    String mutate = "setfattr -h -n security.selinux -v " + wrong + " " + tree.resolve("www/html/site/file0")
        + " " + tree.resolve("other/logs/file1");
    AttrTrees.check(List.of("sh", "-c", mutate), scratch);
    // -W too: a directory skipped for its digest was looked up only by the digest's lookup, whose
    // whole matches libselinux counts as used.
    Run referenceChange = setfiles(changedPolicy, "-D", "-v", "-W");
    assertEquals(0, referenceChange.status(), referenceChange::toString);
    Map<String, String> expectedChange = state();
    TreeSet<String> expectedSkips = skipped(referenceChange);
    assertTrue(expectedSkips.contains("Skipping restorecon on directory(" + tree.resolve("other") + ")"),
        referenceChange::toString);
    assertTrue(expectedChange.get("other/logs/file1").startsWith(AttrTrees.hexWithoutNul(wrong)), expectedChange::toString);
    assertNotEquals(expected.get("www/html"), expectedChange.get("www/html"));

    AttrTrees.run(List.of("rm", "-rf", "--", tree.toString()), scratch);
    AttrTrees.check(List.of("cp", "-a", scratch.resolve("labelled").toString(), tree.toString()), scratch);
    AttrTrees.check(List.of("sh", "-c", mutate), scratch);
    Run oursChange = relabel(changedPolicy, "-D", "-v", "-W");
    assertEquals(0, oursChange.status(), oursChange::toString);
    assertEquals(expectedSkips, skipped(oursChange));
    assertEquals(referenceChange.outLines(), oursChange.outLines());
    assertEquals(unused(referenceChange, AttrTrees.SETFILES + ": "), unused(oursChange, "relabel: "));
    assertEquals(expectedChange, state());

    // 3. -I: nothing skipped, every entry checked, digests stored as with -D.
    AttrTrees.check(List.of("sh", "-c", mutate), scratch);
    Run oursIgnoring = relabel(changedPolicy, "-I", "-v");
    assertEquals(0, oursIgnoring.status(), oursIgnoring::toString);
    assertEquals(new TreeSet<>(), skipped(oursIgnoring));
    Map<String, String> oursIgnoringState = state();
    AttrTrees.check(List.of("sh", "-c", mutate), scratch);
    Run referenceIgnoring = setfiles(changedPolicy, "-I", "-v");
    assertEquals(referenceIgnoring.outLines(), oursIgnoring.outLines());
    assertEquals(2, oursIgnoring.outLines().stream().filter(line -> line.startsWith("Relabeled ")).count(),
        oursIgnoring::toString);
    assertEquals(state(), oursIgnoringState);
  }
}
