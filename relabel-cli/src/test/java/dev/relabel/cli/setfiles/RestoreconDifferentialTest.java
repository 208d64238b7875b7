package dev.relabel.cli.setfiles;

import dev.relabel.cli.RealRestorecon;
import dev.relabel.cli.Trees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code relabel restorecon} against Debian's restorecon ({@link RealRestorecon}, made to believe
 * SELinux is enabled) on identical scrambled copies of a tree, in real places the system policy
 * labels: restorecon has no alternate root, so each copy is a new directory right under /srv,
 * /var/www or /opt (removed afterwards), where specs such as {@code /srv/([^/]*\/)?www(/.*)?},
 * {@code /var/www/[^/]*\/cgi-bin(/.*)?} and {@code /opt/(.*\/)?bin(/.*)?} apply. The template is a
 * copy of /etc and /usr/sbin plus names those specs match, a FIFO, a symlink and a name that is not
 * UTF-8; labels are scrambled (wrong types, other users, a customizable type, a label that is not a
 * context, none). Compared: the {@code -R -n -v} output as sets of lines (each copy's path read as
 * ROOT), the exit statuses, the labels after {@code -R} and after {@code -R -F}, a non-recursive
 * run on a symlink and a path through {@code ..}, lists of paths ({@code -f}, {@code -0}), {@code -e}, {@code -W},
 * and a missing path's status and message; and directory digests ({@code -D}, {@code -I}) as
 * restorecon stores and honours them.
 */
class RestoreconDifferentialTest {
  private static final List<String> SOURCES = List.of("/etc", "/usr/sbin");
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "system_u:object_r:public_content_t:s0",
    "unconfined_u:object_r:user_home_t:s0",
    "system_u:object_r:httpd_sys_content_t:s0",
  };
  /** Names the specs under /srv, /var/www and /opt give their own types. */
  private static final List<String> NAMED = List.of(
      "www/index.html", "ftp/pub/readme", "rsync/module/data", "cgi-bin/run.cgi", "logs/access.log",
      "nextcloud/data/f", "html/logs/error.log", "bin/java-tool", "lib/libx.so", "lib64/x", "man/man1/x.1",
      "app/lib/plugin.so", "app/bin/tool", "app/var/lib/state", "java/x.jar", "tool.cgi", "libexec/helper");

  @TempDir
  static Path base;
  private static Path template;
  private static String scrambleDump;
  private static RealRestorecon restorecon;
  private final List<Path> made = new ArrayList<>();

  @BeforeAll
  static void buildScrambledTree() throws Exception {
    restorecon = RealRestorecon.build(base);
    template = base.resolve("template");
    Files.createDirectories(template);
    for (String source : SOURCES) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    for (String name : NAMED) {
      Path file = template.resolve(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, name);
    }
    AttrTrees.check(List.of("mkfifo", template.resolve("www/pipe").toString()), base);
    Files.createSymbolicLink(template.resolve("www/link"), Path.of("index.html"));
    AttrTrees.touchRaw(template.resolve("www"), "caf\u00e9-\u00ff.html", base);

    List<String> entries = AttrTrees.entries(template, base);
    Random random = new Random(20261129);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String relative : entries) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      if (random.nextInt(400) == 0) {
        scramble.put(relative, "not-a-context");
      } else if (choice < SCRAMBLED.length) {
        scramble.put(relative, SCRAMBLED[choice]);
      } // else no label at all
    }
    scramble.remove("www/caf\u00e9-\u00ff.html"); // unlabelled, so every location relabels it
    // Unlabelled too, whatever the seeded scramble gives the entries before it (they are this
    // machine's /etc, whose packages vary): restorecon's self-check must see it relabelled.
    scramble.remove("www/index.html");
    scrambleDump = AttrTrees.restoreDump(scramble);
  }

  /** Removes the copies made under /srv, /var/www and /opt (and /var/www itself if a test made it). */
  @AfterEach
  void removeCopies() throws Exception {
    for (int i = made.size() - 1; i >= 0; i--) {
      AttrTrees.check(List.of("rm", "-rf", "--one-file-system", "--", made.get(i).toString()), base);
    }
  }

  @AfterAll
  static void removeTemplate() throws Exception {
    if (base != null && Files.isDirectory(base)) {
      AttrTrees.run(List.of("sh", "-c", "rm -rf -- \"$1\"/*", "sh", base.toString()), base.getParent());
    }
  }

  /** A new, uniquely named scrambled copy right under {@code location}, removed after the test. */
  private Path copyUnder(Path location, String tag) throws IOException, InterruptedException {
    if (!Files.isDirectory(location)) {
      made.add(0, Files.createDirectories(location)); // removed last
    }
    Path holder = Files.createTempDirectory(location, "relabel-test-" + tag + "-");
    made.add(holder);
    Files.delete(holder);
    return AttrTrees.labelledCopy(template, holder, scrambleDump, base);
  }

  @ParameterizedTest(name = "{0}, -T {1}")
  @CsvSource({"/srv,1", "/var/www,1", "/opt,1", "/srv,2"})
  void sameOutputStatusAndLabelsAsRestorecon(String location, int threads) throws Exception {
    Path reference = copyUnder(Path.of(location), "ref");
    Path ours = copyUnder(Path.of(location), "ours");
    restorecon.selfCheck(reference.resolve("www/index.html"));
    Map<String, String> before = AttrTrees.labels(reference, base);
    assertEquals(before, AttrTrees.labels(ours, base), "copies must start identical");
    String t = String.valueOf(threads);

    // -R -n -v: what would change; nothing changes.
    Run refDry = restorecon.run(List.of("-T", t, "-R", "-n", "-v", reference.toString()));
    Run ourDry = relabel("-T", t, "-R", "-n", "-v", ours.toString());
    SetfilesCliDifferentialTest.assertSameRun(refDry, reference, ourDry, ours);
    if (threads == 1) {
      Trees.assertSameOrder(refDry, reference, ourDry, ours, null);
    }
    assertTrue(refDry.outLines().size() > 500, () -> "the scramble should need many changes: " + refDry);
    assertTrue(refDry.out().contains(" not reset as customized by admin to "), refDry::toString);
    assertTrue(refDry.out().contains("\u00e9-\u00ff.html from "), "the raw name should be relabelled");
    assertEquals(255, refDry.status(), "a label that is no context is an error: " + refDry);
    assertEquals(before, AttrTrees.labels(reference, base));
    assertEquals(before, AttrTrees.labels(ours, base), "-n must change nothing");

    // -R -v: the changes made, then every label.
    Run refRun = restorecon.run(List.of("-T", t, "-R", "-v", reference.toString()));
    Run ourRun = relabel("-T", t, "-R", "-v", ours.toString());
    SetfilesCliDifferentialTest.assertSameRun(refRun, reference, ourRun, ours);
    assertSameLabels(reference, ours);

    // -R -F: every label forced, customizable types and bad labels included.
    Run refForce = restorecon.run(List.of("-T", t, "-R", "-F", reference.toString()));
    Run ourForce = relabel("-T", t, "-R", "-F", ours.toString());
    SetfilesCliDifferentialTest.assertSameRun(refForce, reference, ourForce, ours);
    assertEquals(0, refForce.status(), refForce::toString);
    assertSameLabels(reference, ours);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"/srv", "/var/www"})
  void singlePathsSymlinksDotDotAndMissingPathsAsRestorecon(String location) throws Exception {
    Path reference = copyUnder(Path.of(location), "ref");
    Path ours = copyUnder(Path.of(location), "ours");
    for (String relative : List.of("www/link", "www/../www/index.html", "www/", "www/pipe", "cgi-bin/run.cgi")) {
      Run ref = restorecon.run(List.of("-v", reference + "/" + relative));
      Run our = relabel("-v", ours + "/" + relative);
      SetfilesCliDifferentialTest.assertSameRun(ref, reference, our, ours);
    }
    assertSameLabels(reference, ours);

    Run refMissing = restorecon.run(List.of("-R", reference + "/missing", reference + "/www"));
    Run ourMissing = relabel("-R", ours + "/missing", ours + "/www");
    assertEquals(255, refMissing.status(), refMissing::toString);
    SetfilesCliDifferentialTest.assertSameRun(refMissing, reference, ourMissing, ours);
    Run refIgnored = restorecon.run(List.of("-i", reference + "/missing"));
    Run ourIgnored = relabel("-i", ours + "/missing");
    assertEquals(0, refIgnored.status(), refIgnored::toString);
    SetfilesCliDifferentialTest.assertSameRun(refIgnored, reference, ourIgnored, ours);
    Run refNoDirectory = restorecon.run(List.of(reference + "/no/such/file"));
    Run ourNoDirectory = relabel(ours + "/no/such/file");
    assertTrue(refNoDirectory.err().contains("Could not get canonical path"), refNoDirectory::toString);
    SetfilesCliDifferentialTest.assertSameRun(refNoDirectory, reference, ourNoDirectory, ours);

    // -f: a list of paths, each globbed; -0: NUL-separated. (Not www/*: under a UTF-8 locale a
    // wildcard cannot stand for a name that is not UTF-8, a limit of Glob's String paths.)
    Path refList = Files.writeString(base.resolve("ref-list"),
        reference + "/{ftp,rsync}/*\n" + reference + "/etc/passwd\n");
    Path ourList = Files.writeString(base.resolve("our-list"), ours + "/{ftp,rsync}/*\n" + ours + "/etc/passwd\n");
    SetfilesCliDifferentialTest.assertSameRun(restorecon.run(List.of("-F", "-v", "-f", refList.toString())), reference,
        relabel("-F", "-v", "-f", ourList.toString()), ours);
    Path refNul = Files.writeString(base.resolve("ref-nul"), reference + "/cgi-bin\0" + reference + "/logs\0");
    Path ourNul = Files.writeString(base.resolve("our-nul"), ours + "/cgi-bin\0" + ours + "/logs\0");
    SetfilesCliDifferentialTest.assertSameRun(restorecon.run(List.of("-R", "-v", "-0", "-f", refNul.toString())),
        reference, relabel("-R", "-v", "-0", "-f", ourNul.toString()), ours);
    assertSameLabels(reference, ours);

    // -W: selabel_stats over the policy libselinux loaded (Debian's file_contexts.bin: no type text).
    SetfilesCliDifferentialTest.assertSameRun(restorecon.run(List.of("-W", "-R", reference + "/www")), reference,
        relabel("-W", "-R", ours + "/www"), ours);

    Run refExcluded = restorecon.run(List.of("-R", "-v", "-e", reference + "/etc", reference.toString()));
    Run ourExcluded = relabel("-R", "-v", "-e", ours + "/etc", ours.toString());
    SetfilesCliDifferentialTest.assertSameRun(refExcluded, reference, ourExcluded, ours);
    assertSameLabels(reference, ours);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"/srv", "/var/www"})
  void digestsAsRestorecon(String location) throws Exception {
    Path reference = copyUnder(Path.of(location), "ref");
    Path ours = copyUnder(Path.of(location), "ours");
    // -R -F -D: labels and the digests stored (-F: no entry fails, so every directory gets one).
    Run refFirst = restorecon.run(List.of("-R", "-F", "-D", reference.toString()));
    Run ourFirst = relabel("-R", "-F", "-D", ours.toString());
    SetfilesCliDifferentialTest.assertSameRun(refFirst, reference, ourFirst, ours);
    assertSameLabels(reference, ours);
    Map<String, String> refDigests = AttrTrees.attributes(reference, "security.sehash", base);
    assertEquals(refDigests, AttrTrees.attributes(ours, "security.sehash", base));
    long stored = refDigests.values().stream().filter(v -> !v.equals("<none>")).count();
    assertTrue(stored > 100, () -> "restorecon -D should store digests: " + stored + "; " + refFirst);

    // A wrong label below: -D skips the unchanged directories (and so keeps it), -I relabels it.
    for (Path root : List.of(reference, ours)) {
      AttrTrees.setLabel(root.resolve("www/index.html"), "system_u:object_r:tmp_t:s0", base);
    }
    for (String flag : List.of("-D", "-I")) {
      Run ref = restorecon.run(List.of("-R", "-v", flag, reference.toString()));
      Run our = relabel("-R", "-v", flag, ours.toString());
      SetfilesCliDifferentialTest.assertSameRun(ref, reference, our, ours);
      assertSameLabels(reference, ours);
      String label = AttrTrees.label(ours.resolve("www/index.html"), base);
      if (flag.equals("-D")) {
        assertTrue(ref.out().contains("Skipping restorecon on directory("), ref::toString);
        assertEquals("system_u:object_r:tmp_t:s0", label, "-D skipped the unchanged directory");
      } else {
        assertEquals("system_u:object_r:httpd_sys_content_t:s0", label, "-I checked every entry");
      }
    }
  }

  private static Run relabel(String... args) {
    List<String> command = Trees.list("restorecon");
    command.addAll(List.of(args));
    return Trees.relabel(command);
  }

  private static void assertSameLabels(Path reference, Path ours) throws IOException, InterruptedException {
    Map<String, String> expected = AttrTrees.labels(reference, base);
    Map<String, String> actual = AttrTrees.labels(ours, base);
    assertEquals(expected.keySet(), actual.keySet());
    List<String> differences = new ArrayList<>();
    for (String path : expected.keySet()) {
      if (!expected.get(path).equals(actual.get(path))) {
        differences.add(path + ": restorecon " + expected.get(path) + ", ours " + actual.get(path));
      }
    }
    assertEquals(List.of(), differences.subList(0, Math.min(30, differences.size())),
        differences.size() + " of " + expected.size() + " entries differ");
  }
}
