package dev.relabel.cli.tar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.cli.LauncherScript;
import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import dev.relabel.fixtures.TarTools;
import dev.relabel.fixtures.oracle.Oracles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code relabel tar} (the installed launcher, run as the unprivileged user 65534) against
 * Debian's {@code setfiles -F}: a copy of /etc, /usr/sbin and /usr/lib/systemd (plus a name that
 * is not UTF-8, a name over 255 bytes, a FIFO, a device and a hard link under two specs) with
 * scrambled labels is archived by GNU tar {@code --xattrs}; GNU tar extracts relabel's output
 * with labels identical to those {@code setfiles -F -r} gives an extraction of the input; the
 * members are otherwise identical and in order (GNU tar's {@code -tvv} listing; Python's
 * {@code tarfile}: every field and a digest of the data). {@code relabel tar -C} of the copy
 * gives the labels setfiles gives an extraction of a plain archive of it.
 */
class TarDifferentialIT {
  private static final String[] SCRAMBLED = {
    "system_u:object_r:tmp_t:s0",
    "staff_u:staff_r:etc_t:s0-s0:c0.c3",
    "unconfined_u:object_r:user_home_t:s0",
    "system_u:object_r:bin_t:s0",
    "not-a-context",
  };
  /** The hard link's names: the smallest name decides (setfiles takes the first it meets). */
  private static final String LINK_SMALL = "etc/relabel-linked";
  private static final String LINK_LARGE = "usr/sbin/relabel-linked";

  @TempDir
  static Path base;
  private static Path copy;
  private static Path input;

  @BeforeAll
  static void archiveAScrambledTree() throws Exception {
    AttrTrees.requireTools(true);
    TarTools.require();
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path template = base.resolve("template");
    for (String source : List.of("/etc", "/usr/sbin", "/usr/lib/systemd")) {
      Path target = template.resolve(source.substring(1)).getParent();
      Files.createDirectories(target);
      AttrTrees.check(List.of("cp", "-a", "--no-preserve=xattr", source, target.toString()), base);
    }
    AttrTrees.touchRaw(template.resolve("etc"), "caf\u00e9-\u00ff.conf", base);
    Path deep = Files.createDirectories(template.resolve("etc/" + "d".repeat(150) + "/" + "e".repeat(150)));
    Files.writeString(deep.resolve("long-named.conf"), "x\n");
    AttrTrees.check(List.of("mkfifo", template.resolve("etc/relabel-fifo").toString()), base);
    AttrTrees.check(List.of("mknod", template.resolve("etc/relabel-null").toString(), "c", "1", "3"), base);
    Files.writeString(template.resolve(LINK_LARGE), "#!/bin/sh\n");
    Files.createLink(template.resolve(LINK_SMALL), template.resolve(LINK_LARGE));
    Random random = new Random(20261201);
    Map<String, String> scramble = new LinkedHashMap<>();
    for (String relative : AttrTrees.entries(template, base)) {
      int choice = random.nextInt(SCRAMBLED.length + 1);
      if (choice < SCRAMBLED.length) {
        scramble.put(relative, SCRAMBLED[choice]);
      }
    }
    copy = AttrTrees.labelledCopy(template, base.resolve("copy"), AttrTrees.restoreDump(scramble), base);
    input = base.resolve("input.tar");
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-cf", input.toString(), "-C", copy.toString(),
        "."), base);
    Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterAll
  static void removeCopies() throws Exception {
    if (base != null && Files.isDirectory(base)) {
      AttrTrees.run(List.of("sh", "-c", "rm -rf -- \"$1\"/*", "sh", base.toString()), base.getParent());
    }
  }

  @Test
  void unprivilegedRelabelGivesSetfilesLabelsAndKeepsEveryMember() throws Exception {
    Path outDir = Files.createDirectory(base.resolve("out"));
    AttrTrees.check(List.of("chown", "65534:65534", outDir.toString()), base);
    Path output = outDir.resolve("labelled.tar");
    Run run = AttrTrees.run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        launcher(), "tar", "-T", "2", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(), input.toString(),
        output.toString()), base);
    assertEquals(0, run.status(), run::toString);
    assertEquals("relabel: conflicting specifications for /" + LINK_LARGE + " and /" + LINK_SMALL + ", using "
        + "system_u:object_r:etc_t:s0.\n", run.err());

    // Every member as it was, in order, but for its label.
    assertEquals(TarTools.listing(input, base), TarTools.listing(output, base));
    List<String> before = TarTools.dump(input, base);
    List<String> after = TarTools.dump(output, base);
    assertEquals(TarTools.withoutLabels(before), TarTools.withoutLabels(after));
    assertTrue(before.size() > 1_500, "tree too small: " + before.size());

    Path reference = referenceExtraction("reference");
    assertSameLabels(AttrTrees.labels(reference, base), AttrTrees.labels(extract(output, "ours"), base));
  }

  @Test
  void checkPassesGnuTarsArchiveOfATreeSetfilesLabelled() throws Exception {
    // GNU tar --xattrs writes no label record for a hard link (extraction gives the inode its
    // target's): --check must judge the link by its target, not call it unlabelled.
    Path labelled = extract(input, "labelled-for-check");
    Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", labelled.toString(),
        Oracles.DEBIAN_FILE_CONTEXTS.toString(), labelled.toString()), base);
    assertTrue(setfiles.status() == 0 || setfiles.status() == 1, setfiles::toString);
    // the two names' inode as relabel labels it (setfiles takes whichever name it meets first)
    AttrTrees.check(List.of("setfattr", "-h", "-n", "security.selinux", "-v", "system_u:object_r:etc_t:s0",
        labelled.resolve(LINK_SMALL).toString()), base);
    Path archive = base.resolve("labelled-for-check.tar");
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-cf", archive.toString(), "-C",
        labelled.toString(), "."), base);
    assertTrue(TarTools.dump(archive, base).stream().anyMatch(line -> line.split(" ")[1].equals("1")),
        "the archive should hold a hard-link member");
    Run check = AttrTrees.run(List.of(launcher(), "tar", "--check", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(),
        archive.toString()), base);
    assertEquals(0, check.status(), check::toString);
  }

  @Test
  void archivingTheDirectoryGivesSetfilesLabels() throws Exception {
    Path output = base.resolve("from-directory.tar");
    Map<String, String> labelsBefore = AttrTrees.labels(copy, base);
    Run run = AttrTrees.run(List.of(launcher(), "tar", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(), "-C",
        copy.toString(), output.toString()), base);
    assertEquals(0, run.status(), run::toString);
    assertEquals(labelsBefore, AttrTrees.labels(copy, base), "the directory's labels must not change");
    // the reference: a plain archive of the directory (no labels), extracted, then setfiles -F
    Path plain = base.resolve("plain.tar");
    AttrTrees.check(List.of("tar", "--sort=name", "-cf", plain.toString(), "-C", copy.toString(), "."), base);
    Path reference = extract(plain, "reference-plain");
    AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", reference.toString(),
        Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()), base);
    assertSameLabels(AttrTrees.labels(reference, base), AttrTrees.labels(extract(output, "ours-directory"), base));
    // and its members are GNU tar's, but for the PAX label records
    List<String> ours = new ArrayList<>(List.of(TarTools.listing(output, base).split("\n")));
    List<String> tars = new ArrayList<>(List.of(TarTools.listing(plain, base).split("\n")));
    assertEquals(tars, ours);
  }

  @Test
  void aNameThatAnAppendedMemberTakesLeavesItsHardLinkedInode() throws Exception {
    // tar -r appends a new file under one of the two names: GNU tar, extracting, unlinks that name
    // and makes a new file, so the old inode keeps only the other name, whose label it gets.
    Path appended = base.resolve("appended.tar");
    Files.copy(input, appended);
    Path source = base.resolve("append-source");
    Files.writeString(Files.createDirectories(source.resolve("etc")).resolve("relabel-linked"), "replaced\n");
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-rf", appended.toString(), "-C",
        source.toString(), "./" + LINK_SMALL), base);
    Path output = base.resolve("appended-labelled.tar");
    Run run = AttrTrees.run(List.of(launcher(), "tar", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(),
        appended.toString(), output.toString()), base);
    assertEquals(0, run.status(), run::toString);
    assertEquals("", run.err(), "the old inode has one name left: no conflict");

    Path reference = extract(appended, "appended-reference");
    Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", reference.toString(),
        Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()), base);
    assertTrue(setfiles.status() == 0 || setfiles.status() == 1, setfiles::toString);
    Map<String, String> expected = AttrTrees.labels(reference, base);
    Map<String, String> actual = AttrTrees.labels(extract(output, "appended-ours"), base);
    assertNotEquals(expected.get(LINK_SMALL), expected.get(LINK_LARGE), "the two names' specs should differ");
    assertEquals(List.of(), differences(expected, actual, Set.of()));
  }

  /**
   * An entry the user cannot read stops {@code -C DIR}'s archive, naming it, and nothing is
   * written; GNU tar, as the same user, leaves the entry out, archives the rest and exits 2.
   */
  @Test
  void anEntryTheUserCannotReadStopsTheArchiveAndNothingIsWritten() throws Exception {
    Path tree = base.resolve("unreadable");
    Files.createDirectories(tree.resolve("etc"));
    Files.writeString(tree.resolve("etc/motd"), "hi\n");
    Path secret = Files.writeString(tree.resolve("etc/shadow"), "root:x\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    Path outDir = Files.createDirectory(base.resolve("unreadable-out"));
    AttrTrees.check(List.of("chown", "65534:65534", outDir.toString()), base);
    List<String> asNobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
    Path output = outDir.resolve("labelled.tar");
    List<String> ours = new ArrayList<>(asNobody);
    ours.addAll(List.of(launcher(), "tar", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(), "-C", tree.toString(),
        output.toString()));
    Run run = AttrTrees.run(ours, base);
    assertEquals(1, run.status(), run::toString);
    assertEquals("relabel: " + secret + ": Permission denied\n", run.err());
    try (var left = Files.list(outDir)) {
      assertEquals(List.of(), left.toList(), "nothing written, no temporary left");
    }
    List<String> gnu = new ArrayList<>(asNobody);
    gnu.addAll(List.of("tar", "-C", tree.toString(), "-cf", outDir.resolve("gnu.tar").toString(), "."));
    assertEquals(2, AttrTrees.run(gnu, base).status());
  }

  /**
   * Each tool restores its own label records: GNU tar {@code --selinux} the RHT record (and only
   * that), bsdtar the LIBARCHIVE and SCHILY ones. An archive each made, relabelled, extracts with
   * that tool to setfiles' labels: with GNU tar {@code --selinux}, every member that had a record
   * (the others it leaves unlabelled either way); with bsdtar, every member, and no LIBARCHIVE
   * record keeps an old label for a tool that reads it alone.
   */
  @Test
  void eachToolsOwnLabelRecordsAreRelabelledForItsExtraction() throws Exception {
    TarTools.requireBsdtar();
    Map<String, String> reference = AttrTrees.labels(referenceExtraction("reference-for-tools"), base);
    Path selinux = base.resolve("selinux.tar");
    AttrTrees.check(List.of("tar", "--selinux", "--format=posix", "-cf", selinux.toString(), "-C", copy.toString(), "."),
        base);
    Path bsd = base.resolve("bsd.tar");
    AttrTrees.check(List.of("bsdtar", "--xattrs", "-cf", bsd.toString(), "-C", copy.toString(), "."), base);
    for (Path in : List.of(selinux, bsd)) {
      Path out = base.resolve("relabelled-" + in.getFileName());
      Run run = AttrTrees.run(List.of(launcher(), "tar", "-f", Oracles.DEBIAN_FILE_CONTEXTS.toString(), in.toString(),
          out.toString()), base);
      assertEquals(0, run.status(), run::toString);
    }

    List<String> selinuxExtract = List.of("tar", "--selinux", "--numeric-owner", "-xpf");
    Map<String, String> before = AttrTrees.labels(extract(selinux, "selinux-in", selinuxExtract), base);
    Map<String, String> after = AttrTrees.labels(extract(base.resolve("relabelled-selinux.tar"), "selinux-out",
        selinuxExtract), base);
    // (tar --selinux sets labels through libselinux, which stores the context with its NUL; setfiles
    // leaves a right context without one as it is: the NUL is not compared)
    Map<String, String> expected = new LinkedHashMap<>();
    before.forEach((path, label) -> expected.put(path, label.equals("<none>") ? label : withoutNul(reference.get(path))));
    assertTrue(before.values().stream().filter(label -> !label.equals("<none>")).count() > 1_000, before::toString);
    Map<String, String> relabelled = new LinkedHashMap<>();
    after.forEach((path, label) -> relabelled.put(path, withoutNul(label)));
    assertEquals(List.of(), differences(expected, relabelled, Set.of(LINK_SMALL, LINK_LARGE)));

    Path bsdOut = base.resolve("relabelled-bsd.tar");
    assertSameLabels(reference, AttrTrees.labels(extract(bsdOut, "bsd-out", List.of("bsdtar", "--xattrs",
        "--numeric-owner", "-xpf")), base));
    String stale = AttrTrees.check(List.of("python3", "-c", "import base64, sys, tarfile\n"
        + "n = 0\n"
        + "for m in tarfile.open(sys.argv[1]):\n"
        + "    h = m.pax_headers\n"
        + "    if 'LIBARCHIVE.xattr.security.selinux' in h:\n"
        + "        n += 1\n"
        + "        v = base64.b64decode(h['LIBARCHIVE.xattr.security.selinux'] + '==').decode('latin-1')\n"
        + "        if v != h['SCHILY.xattr.security.selinux']: print(m.name, repr(v))\n"
        + "print(n > 1000)", bsdOut.toString()), base);
    assertEquals("True\n", stale, "LIBARCHIVE records that do not hold the new label");
  }

  /** A label as {@link AttrTrees#labels} gives it (hex), without a trailing NUL byte. */
  private static String withoutNul(String hex) {
    return hex.startsWith("0x") && hex.endsWith("00") && hex.length() % 2 == 0 ? hex.substring(0, hex.length() - 2) : hex;
  }

  /** An extraction of the input that setfiles -F then labelled: the reference labels. */
  private static Path referenceExtraction(String name) throws Exception {
    Path reference = extract(input, name);
    Run setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", reference.toString(),
        Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()), base);
    assertTrue(setfiles.status() == 0 || setfiles.status() == 1, setfiles::toString);
    return reference;
  }

  private static void assertSameLabels(Map<String, String> expected, Map<String, String> actual) {
    // setfiles labels the hard-linked inode by whichever name it meets first; relabel by the smallest
    assertEquals(List.of(), differences(expected, actual, Set.of(LINK_SMALL, LINK_LARGE)));
    assertEquals(AttrTrees.hex("system_u:object_r:etc_t:s0"), actual.get(LINK_LARGE));
    assertEquals(AttrTrees.hex("system_u:object_r:etc_t:s0"), actual.get(LINK_SMALL));
  }

  /** The first 30 entries whose labels differ, but for {@code skipped}; the same entries in each. */
  private static List<String> differences(Map<String, String> expected, Map<String, String> actual,
      Set<String> skipped) {
    assertEquals(expected.keySet(), actual.keySet());
    List<String> differences = new ArrayList<>();
    for (String path : expected.keySet()) {
      if (!skipped.contains(path) && !expected.get(path).equals(actual.get(path))) {
        differences.add(path + ": setfiles " + expected.get(path) + ", relabel tar " + actual.get(path));
      }
    }
    if (differences.size() > 30) {
      differences.set(30, "... " + (differences.size() - 30) + " more of " + expected.size());
      return differences.subList(0, 31);
    }
    return differences;
  }

  private static Path extract(Path archive, String name) throws Exception {
    return extract(archive, name, List.of("tar", "--xattrs", "--xattrs-include=*", "--numeric-owner", "-xpf"));
  }

  /** {@code archive} extracted by {@code command} (ending in its archive option) into a new directory {@code name}. */
  private static Path extract(Path archive, String name, List<String> command) throws Exception {
    Path into = Files.createDirectory(base.resolve(name));
    List<String> full = new ArrayList<>(command);
    full.addAll(List.of(archive.toString(), "-C", into.toString()));
    AttrTrees.check(full, base);
    return into;
  }

  private static String launcher() {
    return LauncherScript.launcher("TarDifferentialIT").toString();
  }
}
