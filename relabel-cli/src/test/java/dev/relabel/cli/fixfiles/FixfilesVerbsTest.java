package dev.relabel.cli.fixfiles;

import dev.relabel.cli.Trees;
import dev.relabel.cli.setfiles.SetfilesCliDifferentialTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import dev.relabel.fixtures.oracle.Oracles;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fixfiles verbs on a system tree in a temp directory, always through {@code --root}, so that
 * no test touches the real system's labels, /tmp or /.autorelabel. Without PATH, fixfiles runs
 * setfiles over every labelled filesystem; so {@code check} and {@code restore} are compared with
 * the real setfiles ({@code -r ROOT} over an identical copy, with fixfiles_exclude_dirs as
 * {@code -e}). The rest (-B/-N, relabel's /tmp handling, onboot's file, usage errors) is spelled
 * out from the fixfiles script.
 */
class FixfilesVerbsTest {
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0", "staff_u:staff_r:etc_t:s0", "system_u:object_r:public_content_t:s0", null,
  };
  private static final List<String> FILES = List.of(
      "etc/passwd", "etc/selinux/config", "usr/bin/tool", "usr/lib/libx.so", "var/www/html/index.html",
      "srv/www/page", "opt/app/bin/run", "home/alice/notes", "var/log/syslog", "var/tmp/scratch", "tmp/keep/file");

  @TempDir
  Path scratch;
  private Path template;
  private String dump;

  @BeforeEach
  void template() throws Exception {
    AttrTrees.requireTools(true);
    template = scratch.resolve("template");
    for (String file : FILES) {
      Files.createDirectories(template.resolve(file).getParent());
      Files.writeString(template.resolve(file), file);
    }
    Files.createDirectories(template.resolve("etc/selinux"));
    Files.writeString(template.resolve("etc/selinux/fixfiles_exclude_dirs"),
        "# comment\n\n  /opt/app  \nrelative/dir\n/no/such/dir\n");
    Map<String, String> labels = new LinkedHashMap<>();
    List<String> entries = AttrTrees.entries(template, scratch);
    for (int i = 0; i < entries.size(); i++) {
      labels.put(entries.get(i), SCRAMBLED[i % SCRAMBLED.length]);
    }
    dump = AttrTrees.restoreDump(labels);
  }

  private Path copy(String name) throws Exception {
    return AttrTrees.labelledCopy(template, scratch.resolve(name), dump, scratch);
  }

  private static Run relabel(byte[] stdin, String... args) {
    return Trees.relabel(stdin, List.of(args));
  }

  private static Run relabel(String... args) {
    return Trees.relabel(List.of(args));
  }

  private Run setfiles(Path root, String... flags) throws Exception {
    List<String> command = Trees.list(AttrTrees.SETFILES.toString());
    command.addAll(List.of(flags));
    command.addAll(List.of("-e", root + "/opt/app", "-r", root.toString(), Oracles.DEBIAN_FILE_CONTEXTS.toString(),
        root.toString()));
    return AttrTrees.run(command, scratch);
  }

  @Test
  void checkListsWhatSetfilesWouldChangeAndRestoreLabelsAsItDoes() throws Exception {
    Path reference = copy("reference");
    Path ours = copy("ours");
    // A session directory that fixfiles' restore (not its check) removes in its clean-up of /tmp.
    Files.createDirectories(reference.resolve("tmp"));
    Path session = Files.createDirectories(ours.resolve("tmp/orbit-alice"));
    Map<String, String> before = AttrTrees.labels(ours, scratch);

    Run check = relabel("check", "--root", ours.toString());
    Run setfilesCheck = setfiles(reference, "-n", "-v");
    assertEquals(0, check.status(), check::toString);
    List<String> lines = new ArrayList<>(check.out().lines().toList());
    assertEquals("skipping the directory " + ours + "/opt/app", lines.remove(0), check::toString);
    assertEquals("Checking " + ours, lines.remove(0), "fixfiles names the filesystems it checks");
    assertEquals(SetfilesCliDifferentialTest.normalize(setfilesCheck.outLines(), reference),
        SetfilesCliDifferentialTest.normalize(new TreeSet<>(lines), ours));
    assertEquals(before, AttrTrees.labels(ours, scratch), "check changes nothing");

    Run verify = relabel("verify", "--root", ours.toString());
    assertTrue(verify.out().contains("\nVerifying " + ours + "\n"), verify::toString);
    assertEquals(check.outLines().size(), verify.outLines().size(), "verify is check under another name");

    assertTrue(Files.isDirectory(session), "check and verify clean nothing up");
    Run restore = relabel("restore", "--root", ours.toString());
    Run setfilesRestore = setfiles(reference, "-p");
    assertEquals(setfilesRestore.status(), restore.status(), restore::toString);
    assertEquals("skipping the directory " + ours + "/opt/app\nRelabeling " + ours + "\n" + setfilesRestore.out()
        + "Cleaning up labels on /tmp\n", restore.out(),
        "without -v: fixfiles' own lines, what setfiles -p prints off a terminal, as fixfiles runs it, then the clean-up");
    assertFalse(Files.exists(session), "fixfiles' restore is its relabel without the question: /tmp is cleaned up");
    Run quiet = relabel("restore", "--no-progress", "--root", ours.toString());
    assertEquals("skipping the directory " + ours + "/opt/app\nRelabeling " + ours + "\nCleaning up labels on /tmp\n",
        quiet.out(), quiet::toString);
    assertEquals(AttrTrees.labels(reference, scratch), AttrTrees.labels(ours, scratch));
    assertEquals(before.get("opt/app/bin/run"), AttrTrees.labels(ours, scratch).get("opt/app/bin/run"),
        "fixfiles_exclude_dirs are skipped");
  }

  /**
   * -M: each filesystem relabelled through a bind mount of it alone, so that what a mount covers is
   * labelled too. The reference is what fixfiles -M has setfiles do, its steps made here by hand (a
   * new directory in /tmp, the filesystem bound in it, setfiles -r that directory, the mount taken
   * off), with fixfiles_exclude_dirs at their place below the bind, where fixfiles passes them as
   * they are and so labels them. Without -M what the mount covers is not reached. No mount and no
   * directory of relabel's is left.
   */
  @Test
  void minusMLabelsWhatAMountCoversAsSetfilesThroughABindMount() throws Exception {
    Path reference = copy("reference");
    Path ours = copy("ours");
    Path plain = copy("plain");
    List<Path> covers = new ArrayList<>();
    try {
      for (Path root : List.of(reference, ours, plain)) {
        Path covered = Files.createDirectories(root.resolve("srv/covered"));
        AttrTrees.setLabel(Files.writeString(covered.resolve("under"), "x"), "system_u:object_r:tmp_t:s0", scratch);
        AttrTrees.setLabel(covered, "system_u:object_r:tmp_t:s0", scratch);
        AttrTrees.mount(List.of("mount", "-t", "tmpfs", "tmpfs", covered.toString()), scratch);
        covers.add(covered);
      }
      Run without = relabel("restore", "--root", plain.toString());
      assertEquals(0, without.status(), without::toString);
      assertEquals("system_u:object_r:tmp_t:s0", hexToText(coveredLabels(plain).get("srv/covered/under")),
          "without -M what the mount covers keeps its label");

      Run check = relabel("check", "-M", "--root", ours.toString());
      Run setfilesCheck = throughBindMount(reference, "-n", "-v");
      assertEquals(0, check.status(), check::toString);
      List<String> lines = new ArrayList<>(check.out().lines().toList());
      assertEquals("skipping the directory " + ours + "/opt/app", lines.remove(0), check::toString);
      assertEquals("Checking " + ours, lines.remove(0), check::toString);
      assertEquals(bound(setfilesCheck.outLines(), reference), bound(new TreeSet<>(lines), ours));
      assertTrue(String.join("\n", lines).contains("/srv/covered/under "), "the covered file is listed: " + lines);

      Map<String, String> excludedBefore = AttrTrees.labels(ours.resolve("opt/app"), scratch);
      Run restore = relabel("restore", "-M", "--root", ours.toString());
      Run setfilesRestore = throughBindMount(reference, "-p");
      assertEquals(setfilesRestore.status(), restore.status(), restore::toString);
      assertEquals("skipping the directory " + ours + "/opt/app\nRelabeling " + ours + "\n" + setfilesRestore.out()
          + "Cleaning up labels on /tmp\n", restore.out(), "fixfiles' lines, then setfiles -p's through the bind mount");
      assertEquals(coveredLabels(reference), coveredLabels(ours));
      assertEquals("system_u:object_r:var_t:s0", hexToText(coveredLabels(ours).get("srv/covered/under")),
          "relabelled by its own path's spec");
      assertEquals(excludedBefore, AttrTrees.labels(ours.resolve("opt/app"), scratch), "fixfiles_exclude_dirs skipped");
      try (Stream<Path> left = Files.list(ours.resolve("tmp"))) {
        assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("tmp.")).toList(),
            "the directory made for the bind mount is removed");
      }
      String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
      assertFalse(mounts.contains(ours + "/tmp/"), "the bind mount is taken off: " + mounts);

      Run withPath = relabel("restore", "-M", "--root", ours.toString(), ours + "/srv");
      assertEquals(1, withPath.status(), withPath::toString);
      assertTrue(withPath.err().contains("-M relabels whole filesystems: give no PATH"), withPath::toString);
      Run withSince = relabel("check", "-M", "-N", "2010-01-01", "--root", ours.toString());
      assertEquals(1, withSince.status(), withSince::toString);
      assertTrue(withSince.err().contains("-M relabels whole filesystems: not with -B, -N or -C"), withSince::toString);
    } finally {
      AttrTrees.unmountAll(covers, scratch);
    }
  }

  /** fixfiles -M's steps for the one filesystem holding {@code root}: setfiles {@code flags} through a bind mount of it. */
  private Run throughBindMount(Path root, String... flags) throws Exception {
    Path top = Files.createTempDirectory(root.resolve("tmp"), "tmp.");
    AttrTrees.mount(List.of("mount", "--bind", root.toString(), top.toString()), scratch);
    try {
      List<String> command = Trees.list(AttrTrees.SETFILES.toString());
      command.addAll(List.of(flags));
      command.addAll(List.of("-e", top + "/opt/app", "-r", top.toString(), Oracles.DEBIAN_FILE_CONTEXTS.toString(),
          top + "/"));
      return AttrTrees.run(command, scratch);
    } finally {
      AttrTrees.unmountAll(List.of(top), scratch);
      Files.delete(top);
    }
  }

  /** {@code lines} with the directory the bind mount was made in (ROOT/tmp/tmp.*) named alike. */
  private static TreeSet<String> bound(TreeSet<String> lines, Path root) {
    TreeSet<String> named = new TreeSet<>();
    for (String line : lines) {
      named.add(line.replaceAll(java.util.regex.Pattern.quote(root + "/tmp/tmp.") + "[^/ ]+", "TMP"));
    }
    return named;
  }

  /** Every entry's label below {@code root}, what mounts cover included: read through a bind mount of it alone. */
  private Map<String, String> coveredLabels(Path root) throws Exception {
    Path peek = Files.createTempDirectory(scratch, "peek");
    AttrTrees.mount(List.of("mount", "--bind", root.toString(), peek.toString()), scratch);
    try {
      return AttrTrees.labels(peek, scratch);
    } finally {
      AttrTrees.unmountAll(List.of(peek), scratch);
    }
  }

  @Test
  void pastTheListLimitChangesAreSummarizedAndMinusVvListsThemAll() throws Exception {
    Run all = relabel("check", "-vv", "--root", copy("all").toString());
    long changes = all.out().lines().filter(line -> line.startsWith("Would relabel ")).count();
    assertTrue(changes > 5, all::toString);

    Run summarized = relabel("check", "--list-limit", "3", "--root", copy("summarized").toString());
    assertEquals(0, summarized.status(), summarized::toString);
    String out = summarized.out();
    assertEquals(3, out.lines().filter(line -> line.startsWith("Would relabel ")).count(), out);
    assertTrue(out.contains(String.format("... %d more changes not listed (of %d; -vv lists them all)%n", changes - 3, changes)),
        out);
    assertTrue(out.contains("Changes by directory"), out);
    assertTrue(out.contains("Changes by type (old -> new)"), out);
    assertTrue(out.contains("(unlabeled) -> "), out);
  }

  @Test
  void aPolicyUpdateRelabelsOnlyWhatItChanged() throws Exception {
    Path ours = copy("ours");
    assertEquals(0, relabel("restore", "--root", ours.toString()).status());
    // The previous policy gave /srv/.../www another type; the entries are still labelled by it, and
    // one entry the update does not concern is wrong.
    Path previous = Files.createDirectories(scratch.resolve("previous")).resolve("file_contexts");
    String policy = Files.readString(Oracles.DEBIAN_FILE_CONTEXTS, java.nio.charset.StandardCharsets.ISO_8859_1);
    String wwwLine = "/srv/([^/]*/)?www(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0";
    assertTrue(policy.contains(wwwLine + "\n"), "Debian's policy should have the /srv www line");
    Files.writeString(previous, policy.replace(wwwLine, "/srv/([^/]*/)?www(/.*)?\tsystem_u:object_r:var_t:s0"),
        java.nio.charset.StandardCharsets.ISO_8859_1);
    AttrTrees.setLabel(ours.resolve("srv/www/page"), "system_u:object_r:var_t:s0", scratch);
    AttrTrees.setLabel(ours.resolve("srv/www"), "system_u:object_r:var_t:s0", scratch);
    AttrTrees.setLabel(ours.resolve("etc/passwd"), "system_u:object_r:tmp_t:s0", scratch);

    Run check = relabel("check", "-C", previous.toString(), "--root", ours.toString());
    assertEquals(0, check.status(), check::toString);
    assertEquals(2, check.out().lines().filter(line -> line.startsWith("Would relabel ")).count(), check::toString);

    Run run = relabel("restore", "-v", "-C", previous.toString(), "--root", ours.toString());
    assertEquals(0, run.status(), run::toString);
    List<String> changed = run.out().lines().filter(line -> line.startsWith("Relabeled ")).sorted().toList();
    assertEquals(List.of(
        "Relabeled " + ours + "/srv/www from system_u:object_r:var_t:s0 to system_u:object_r:httpd_sys_content_t:s0",
        "Relabeled " + ours + "/srv/www/page from system_u:object_r:var_t:s0 to system_u:object_r:httpd_sys_content_t:s0"),
        changed);
    assertEquals("system_u:object_r:tmp_t:s0", AttrTrees.label(ours.resolve("etc/passwd"), scratch));
    assertEquals(1, relabel("relabel", "-f", "-C", previous.toString(), "--root", ours.toString()).status(),
        "-C is for restore, check and verify");
  }

  @Test
  void restoreWithPathsIsRestoreconRecursiveOnEach() throws Exception {
    Path ours = copy("ours");
    Run run = relabel("restore", "-v", "--root", ours.toString(), ours + "/srv", ours + "/etc/passwd");
    assertEquals(0, run.status(), run::toString);
    assertTrue(run.out().contains("Relabeled " + ours + "/srv/www/page from "), run::toString);
    assertEquals("system_u:object_r:httpd_sys_content_t:s0", AttrTrees.label(ours.resolve("srv/www/page"), scratch));
    String passwd = AttrTrees.label(ours.resolve("etc/passwd"), scratch);
    assertTrue(passwd.endsWith(":etc_t:s0") || passwd.equals("system_u:object_r:public_content_t:s0"), passwd);
    assertEquals(AttrTrees.labels(copy("untouched"), scratch).get("usr/bin/tool"),
        AttrTrees.labels(ours, scratch).get("usr/bin/tool"), "only the given paths");
    Run missing = relabel("restore", "--root", ours.toString(), ours + "/missing");
    assertEquals(255, missing.status(), missing::toString);
    assertTrue(missing.err().contains("lstat(" + ours + "/missing) failed: No such file or directory"),
        missing::toString);
  }

  @Test
  void withoutMinusVEachPathGetsTheProgressTextOfARestoreconOfItsOwn() throws Exception {
    // fixfiles passes -p to restorecon unless given -v, and runs one restorecon per path: off a
    // terminal each prints its own "\r1k..." count from zero and its own last newline.
    Path ours = copy("ours");
    for (String dir : List.of("srv/many-a", "srv/many-b")) {
      Path many = Files.createDirectories(ours.resolve(dir));
      for (int i = 0; i < 1500; i++) {
        Files.createFile(many.resolve("f" + i));
      }
    }
    StringBuilder expected = new StringBuilder();
    for (String dir : List.of("srv/many-a", "srv/many-b")) {
      Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-p", "-n", "-r", ours.toString(),
          Oracles.DEBIAN_FILE_CONTEXTS.toString(), ours + "/" + dir), scratch);
      assertEquals(0, setfiles.status(), setfiles::toString);
      assertEquals("\r1k\n", setfiles.out(), "the reference's text");
      expected.append("skipping the directory " + ours + "/opt/app\n").append(setfiles.out());
    }
    Run restore = relabel("restore", "--root", ours.toString(), ours + "/srv/many-a", ours + "/srv/many-b");
    assertEquals(0, restore.status(), restore::toString);
    assertEquals(expected.toString(), restore.out(), restore::toString);
    Run verbose = relabel("restore", "-v", "--root", ours.toString(), ours + "/srv/many-a", ours + "/srv/many-b");
    assertEquals(("skipping the directory " + ours + "/opt/app\n").repeat(2), verbose.out(),
        "with -v (nothing left to change) no progress text, as fixfiles passes -v instead");
  }

  @Test
  void sinceATimeOnlyEntriesModifiedLaterAreLabelledByMtime() throws Exception {
    Path ours = copy("ours");
    FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
    try (Stream<Path> all = Files.walk(ours)) {
      for (Path p : all.toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
    Path recent = ours.resolve("usr/bin/tool");
    AttrTrees.setLabel(recent, "system_u:object_r:tmp_t:s0", scratch); // not the customizable type
    Files.setLastModifiedTime(recent, FileTime.from(Instant.parse("2015-06-01T12:00:00Z")));
    Map<String, String> before = AttrTrees.labels(ours, scratch);

    Run run = relabel("restore", "-v", "-N", "2010-01-01 00:00", "--root", ours.toString());
    assertEquals(0, run.status(), run::toString);
    Map<String, String> after = AttrTrees.labels(ours, scratch);
    List<String> changed = before.keySet().stream().filter(k -> !before.get(k).equals(after.get(k))).toList();
    assertEquals(List.of("usr/bin/tool"), changed, run::toString);
    assertEquals("system_u:object_r:bin_t:s0", AttrTrees.label(recent, scratch));

    // As fixfiles, -N selects from the start of its date: its TIME reaches find -newermt unquoted,
    // the date alone (the VM tests compare with fixfiles). The file of 12:00 UTC that day is newer.
    AttrTrees.setLabel(recent, "system_u:object_r:tmp_t:s0", scratch);
    String later = LocalDate.ofInstant(Instant.parse("2015-06-01T12:00:00Z"), ZoneId.systemDefault()) + " 23:59";
    Run sameDay = relabel("check", "-N", later, "--root", ours.toString());
    assertEquals(List.of("Would relabel " + recent + " from system_u:object_r:tmp_t:s0 to system_u:object_r:bin_t:s0"),
        sameDay.out().lines().toList(), sameDay::toString);
    AttrTrees.setLabel(recent, "system_u:object_r:bin_t:s0", scratch);

    // -B: since the start of the day the system booted; a file written now is newer, the 2001 ones are not.
    Path now = Files.writeString(ours.resolve("etc/written-now"), "");
    Files.setLastModifiedTime(ours.resolve("etc"), old); // writing touched its directory
    AttrTrees.setLabel(now, "system_u:object_r:tmp_t:s0", scratch);
    Run boot = relabel("check", "-B", "--root", ours.toString());
    assertEquals(List.of("Would relabel " + now + " from system_u:object_r:tmp_t:s0 to system_u:object_r:etc_t:s0"),
        boot.out().lines().toList(), boot::toString);

    // fixfiles hands restorecon each selected entry as a path: one no spec labels (/tmp/.* is
    // <<none>>) gets restorecon's warning for a path it is given; an older one nothing.
    Files.createDirectories(ours.resolve("tmp"));
    Path unlabelled = Files.writeString(ours.resolve("tmp/new"), "");
    Files.writeString(ours.resolve("tmp/old"), "");
    Files.setLastModifiedTime(ours.resolve("tmp/old"), old);
    Files.setLastModifiedTime(ours.resolve("tmp"), old);
    Files.setLastModifiedTime(ours.resolve("etc/written-now"), old);
    Run none = relabel("restore", "-N", "2010-01-01", "--root", ours.toString());
    assertEquals(0, none.status(), none::toString);
    assertEquals("Warning no default label for /tmp/new\n\n", none.out(), none::toString); // then -p's newline
    assertTrue(Files.exists(unlabelled));
  }

  @ParameterizedTest
  @ValueSource(strings = {"n", "y", "-f"})
  void relabelAsksAboutTmpThenCleansUpItsLabels(String answer) throws Exception {
    Path ours = copy("ours");
    Path stale = Files.createDirectories(ours.resolve("tmp/orbit-alice"));
    Path unlabelled = Files.writeString(ours.resolve("tmp/keep/unlabelled"), "");
    Path fifo = ours.resolve("tmp/pipe");
    AttrTrees.check(List.of("mkfifo", fifo.toString()), scratch);
    Path socketPath = ours.resolve("tmp/sock");
    try (ServerSocketChannel socket = ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      socket.bind(UnixDomainSocketAddress.of(socketPath));
    }
    Path varTmpFile = Files.writeString(ours.resolve("var/tmp/unlabelled"), "");
    AttrTrees.setLabel(ours.resolve("var/tmp/scratch"), "system_u:object_r:unlabeled_t:s0", scratch);

    Run run = answer.equals("-f")
        ? relabel("relabel", "-f", "--root", ours.toString())
        : relabel((answer + "\n").getBytes(StandardCharsets.US_ASCII), "relabel", "--root", ours.toString());
    assertEquals(0, run.status(), run::toString);
    String out = run.out();
    assertEquals(!answer.equals("-f"), out.contains("Do you wish to clean out the /tmp directory [N]? "), out);
    assertEquals(!answer.equals("n"), out.contains("Cleaning out /tmp\n"), out);
    assertTrue(out.contains("Relabeling " + ours + "\n") && out.endsWith("Cleaning up labels on /tmp\n"), out);
    assertFalse(Files.exists(stale), "stale session directories go");
    String tmpLabel = AttrTrees.label(ours.resolve("tmp"), scratch);
    assertEquals("system_u:object_r:tmp_t:s0", tmpLabel);
    if (answer.equals("n")) {
      assertEquals(tmpLabel, AttrTrees.label(unlabelled, scratch), "no label: /tmp's");
      assertFalse(Files.exists(fifo) || Files.exists(socketPath), "unlabelled FIFOs and sockets go");
      String scrambled = AttrTrees.labels(copy("untouched"), scratch).get("tmp/keep/file");
      assertEquals(scrambled.equals("<none>") ? tmpLabel : hexToText(scrambled),
          AttrTrees.label(ours.resolve("tmp/keep/file"), scratch),
          "the policy leaves /tmp/.* alone (<<none>>): a label stays, no label becomes /tmp's");
    } else {
      try (Stream<Path> left = Files.list(ours.resolve("tmp"))) {
        assertEquals(List.of(), left.toList(), "/tmp emptied");
      }
    }
    assertEquals(AttrTrees.label(ours.resolve("var/tmp"), scratch), AttrTrees.label(varTmpFile, scratch));
    assertEquals(AttrTrees.label(ours.resolve("var/tmp"), scratch),
        AttrTrees.label(ours.resolve("var/tmp/scratch"), scratch), "unlabeled_t: /var/tmp's label");
  }

  @Test
  void onbootWritesAutorelabelAsFixfiles() throws Exception {
    Path root = Files.createDirectories(scratch.resolve("root"));
    Run run = relabel("onboot", "--root", root.toString(), "-B", "-T", "2");
    assertEquals(0, run.status(), run::toString);
    assertEquals("System will relabel on next boot\n", run.out());
    assertEquals("-F\n", Files.readString(root.resolve(".autorelabel")), "SELinux not enabled: a full relabel");

    Files.createDirectories(root.resolve("sys/fs/selinux"));
    Files.writeString(root.resolve("sys/fs/selinux/enforce"), "1");
    assertEquals(0, relabel("onboot", "--root", root.toString()).status());
    assertEquals("", Files.readString(root.resolve(".autorelabel")));
    assertEquals(0, relabel("onboot", "--root", root.toString(), "-F", "-B", "-M", "-T", "2").status());
    String bootDay = Instant.ofEpochSecond(btime()).atZone(ZoneId.systemDefault()).toLocalDate().toString();
    assertEquals("-F -N " + bootDay + " -M -T 2 ", Files.readString(root.resolve(".autorelabel")));
  }

  /** A label as {@link AttrTrees#labels} shows it (0x hex, maybe a trailing NUL) as text. */
  private static String hexToText(String hex) {
    StringBuilder text = new StringBuilder();
    for (int i = 2; i + 1 < hex.length(); i += 2) {
      char c = (char) Integer.parseInt(hex.substring(i, i + 2), 16);
      if (c != 0) {
        text.append(c);
      }
    }
    return text.toString();
  }

  private static long btime() throws Exception {
    return Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.startsWith("btime "))
        .mapToLong(l -> Long.parseLong(l.substring(6).strip())).findFirst().orElseThrow();
  }

  /**
   * fixfiles restores a whole system with setfiles, which validates the policy: duplicate specs
   * (here under a root holding its own policy) are refused as setfiles refuses them, and nothing
   * is labelled; restore with a PATH is restorecon, which takes them (the later one wins).
   */
  @Test
  void restoreRefusesDuplicateSpecsAsSetfilesAndRestoreconTakesThem() throws Exception {
    Path ours = copy("ours");
    Path policy = ours.resolve("etc/selinux/default/contexts/files/file_contexts");
    Files.createDirectories(policy.getParent());
    Files.writeString(ours.resolve("etc/selinux/config"), "SELINUXTYPE=default\n");
    Files.writeString(policy, Files.readString(Oracles.DEBIAN_FILE_CONTEXTS)
        + "/srv/www/page  system_u:object_r:etc_t:s0\n/srv/www/page  system_u:object_r:bin_t:s0\n");
    Map<String, String> before = AttrTrees.labels(ours, scratch);

    Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-n", "-r", ours.toString(),
        policy.toString(), ours.toString()), scratch);
    assertEquals(1, setfiles.status(), setfiles::toString);
    assertTrue(setfiles.err().contains("Multiple different specifications for /srv/www/page "), setfiles::toString);

    Run restore = relabel("restore", "--root", ours.toString());
    assertEquals(1, restore.status(), restore::toString);
    assertTrue(restore.err().contains("Multiple different specifications for /srv/www/page "), restore::toString);
    assertEquals(before, AttrTrees.labels(ours, scratch), "nothing is labelled");

    Run restorecon = relabel("restore", "--root", ours.toString(), ours + "/srv/www/page");
    assertEquals(0, restorecon.status(), restorecon::toString);
    assertEquals("system_u:object_r:bin_t:s0", AttrTrees.label(ours.resolve("srv/www/page"), scratch));
  }

  @Test
  void usageErrorsExitOneAsFixfilesUsage() throws Exception {
    Path root = Files.createDirectories(scratch.resolve("root"));
    String r = root.toString();
    for (List<String> args : List.of(
        List.of("restore", "-B", "--root", r, r),
        List.of("check", "-B", "-N", "2020-01-01", "--root", r),
        List.of("check", "-N", "yesterday", "--root", r),
        List.of("onboot", "-N", "2020-01-01 10:00", "--root", r),
        List.of("relabel", "-N", "2020-01-01 10:00", "--root", r),
        List.of("relabel", "--root", r, "/etc"),
        List.of("restore", "--root", scratch.resolve("missing").toString()))) {
      Run run = Trees.relabel(args);
      assertEquals(1, run.status(), () -> args + "\n" + run);
      assertTrue(run.err().startsWith("relabel: "), run::toString);
    }
    assertFalse(Files.exists(root.resolve(".autorelabel")));
  }
}
