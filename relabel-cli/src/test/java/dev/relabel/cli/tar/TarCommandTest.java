package dev.relabel.cli.tar;

import dev.relabel.cli.Cli;
import dev.relabel.cli.common.ExitStatus;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.TarTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code relabel tar} from the command line: IN and OUT as files and as standard streams, the
 * codecs OUT's name or {@code --compress} choose, OUT written whole or not at all, {@code --check}
 * with its summary, exit statuses and {@code --json}, and {@code -C DIR}. Archives made by GNU tar,
 * read back by Python's tarfile and the codecs' own tools.
 */
class TarCommandTest {
  @TempDir Path dir;
  private Path tree;
  private Path policy;
  private Path archive;

  @BeforeEach
  void layout() throws Exception {
    TarTools.require();
    tree = Files.createDirectory(dir.resolve("tree"));
    for (String file : List.of("etc/a.conf", "etc/b.conf", "var/log/syslog", "usr/bin/ls")) {
      Files.createDirectories(tree.resolve(file).getParent());
      Files.writeString(tree.resolve(file), file + "\n");
    }
    policy = dir.resolve("file_contexts");
    Files.writeString(policy, String.join("\n",
        "/.* system_u:object_r:default_t:s0",
        "/etc(/.*)? system_u:object_r:etc_t:s0",
        "/var/log(/.*)? system_u:object_r:var_log_t:s0",
        "/usr/bin(/.*)? system_u:object_r:bin_t:s0", ""));
    archive = dir.resolve("in.tar");
    AttrTrees.check(List.of("tar", "--sort=name", "-cf", archive.toString(), "-C", tree.toString(), "."), dir);
  }

  private Cli.Result tar(byte[] stdin, String... args) {
    String[] all = Stream.concat(Stream.of("tar", "-f", policy.toString()), Arrays.stream(args)).toArray(String[]::new);
    return Cli.run(stdin, StandardCharsets.UTF_8, all);
  }

  @Test
  void filesAndStandardStreamsGiveTheSameLabelledArchive() throws Exception {
    Path out = dir.resolve("out.tar");
    Cli.Result files = tar(new byte[0], archive.toString(), out.toString());
    assertEquals(0, files.status(), files::toString);
    assertEquals("", files.err());
    Cli.Result streams = tar(Files.readAllBytes(archive));
    assertEquals(0, streams.status(), streams::toString);
    assertArrayEquals(Files.readAllBytes(out), streams.out());
    Cli.Result dashes = tar(Files.readAllBytes(archive), "-", "-");
    assertArrayEquals(streams.out(), dashes.out());
    List<String> dump = TarTools.dump(out, dir);
    assertEquals(TarTools.withoutLabels(TarTools.dump(archive, dir)), TarTools.withoutLabels(dump));
    for (String line : dump) {
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      String expected = name.startsWith("./etc") ? "etc_t" : name.startsWith("./var/log") ? "var_log_t"
          : name.startsWith("./usr/bin") ? "bin_t" : "default_t";
      assertEquals("system_u:object_r:" + expected + ":s0\0", TarTools.labelOf(line), name);
    }
  }

  @Test
  void outputIsCompressedAsItsNameOrTheFlagSays() throws Exception {
    Path plain = dir.resolve("plain.tar");
    assertEquals(0, tar(new byte[0], archive.toString(), plain.toString()).status());
    byte[] expected = Files.readAllBytes(plain);
    for (String[] codec : new String[][] {{"gzip", "out.tar.gz"}, {"bzip2", "out.tbz2"}, {"xz", "out.txz"},
        {"zstd", "out.tar.zst"}}) {
      Path out = dir.resolve(codec[1]);
      Cli.Result r = tar(new byte[0], archive.toString(), out.toString());
      assertEquals(0, r.status(), r::toString);
      assertArrayEquals(expected, decompress(codec[0], out), codec[1]);
      // --compress on standard output, and a compressed IN on standard input comes out compressed alike
      Cli.Result flagged = tar(Files.readAllBytes(archive), "--compress", codec[0]);
      Path flaggedOut = Files.write(dir.resolve("flagged-" + codec[1]), flagged.out());
      assertArrayEquals(expected, decompress(codec[0], flaggedOut), codec[0]);
      Cli.Result same = tar(Files.readAllBytes(out));
      assertArrayEquals(expected, decompress(codec[0], Files.write(dir.resolve("same-" + codec[1]), same.out())));
    }
    Cli.Result bad = tar(new byte[0], "--compress", "lz4", archive.toString());
    assertEquals(1, bad.status());
    assertEquals("relabel: --compress lz4: not one of none, gzip, bzip2, xz, zstd\n", bad.err());
    // A name asking for a compression not written here is refused, not written plain under it.
    Path lzip = dir.resolve("out.tar.lz");
    Cli.Result refused = tar(new byte[0], archive.toString(), lzip.toString());
    assertEquals(1, refused.status());
    assertEquals("relabel: " + lzip + ": the name asks for lzip, which relabel tar does not write (gzip, bzip2, xz,"
        + " zstd or none): give another name, or --compress\n", refused.err());
    assertFalse(Files.exists(lzip));
    assertEquals(0, tar(new byte[0], "--compress", "none", archive.toString(), lzip.toString()).status());
    assertArrayEquals(expected, Files.readAllBytes(lzip));
  }

  @Test
  void aRunThatFailsBeforeItsFirstMemberWritesNothingOnStandardOutputCompressedOrNot() throws Exception {
    byte[] corrupt = Files.readAllBytes(archive);
    corrupt[148] ^= 1; // the first header's checksum
    for (String codec : List.of("none", "gzip", "bzip2", "xz", "zstd")) {
      Cli.Result r = tar(corrupt, "--compress", codec);
      assertEquals(1, r.status(), r::toString);
      assertEquals(0, r.out().length, codec + " wrote " + r.out().length + " bytes");
    }
  }

  private byte[] decompress(String codec, Path file) throws Exception {
    Path out = dir.resolve(file.getFileName() + ".decompressed");
    AttrTrees.check(List.of("sh", "-c", codec + " -dc < \"$1\" > \"$2\"", "sh", file.toString(), out.toString()), dir);
    return Files.readAllBytes(out);
  }

  @Test
  void aCorruptArchiveLeavesOutAsItWas() throws Exception {
    Path out = Files.writeString(dir.resolve("out.tar"), "a good archive\n");
    byte[] whole = Files.readAllBytes(archive);
    Path truncated = Files.write(dir.resolve("truncated.tar"), Arrays.copyOf(whole, 3 * 512 + 100));
    Cli.Result r = tar(new byte[0], truncated.toString(), out.toString());
    assertEquals(1, r.status(), r::toString);
    assertTrue(r.err().matches("relabel: " + truncated + ": member '\\./[^']+' at offset \\d+: the archive ends"
        + " inside the member's data \\(truncated\\)\n"), r.err());
    assertEquals("a good archive\n", Files.readString(out));
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList());
    }
    // a gzip stream cut short: said so, not "I/O error: null"; OUT left as it was
    AttrTrees.check(List.of("sh", "-c", "gzip -c < \"$1\" | head -c 30 > \"$2\"", "sh", archive.toString(),
        dir.resolve("cut.tar.gz").toString()), dir);
    Cli.Result cut = tar(new byte[0], dir.resolve("cut.tar.gz").toString(), out.toString());
    assertEquals(1, cut.status(), cut::toString);
    assertTrue(cut.err().contains("truncated") && !cut.err().contains("null"), cut::toString);
    assertEquals("a good archive\n", Files.readString(out));
    Cli.Result garbage = tar("not a tar archive at all".repeat(40).getBytes(StandardCharsets.US_ASCII));
    assertEquals(1, garbage.status());
    assertEquals("relabel: standard input: the first header at offset 0: bad header checksum (corrupt, or not a"
        + " tar archive)\n", garbage.err());
  }

  @Test
  void anArchiveWithoutItsEndBlocksIsTakenWithAWarningNamingIt() throws Exception {
    byte[] whole = Files.readAllBytes(archive);
    int end = whole.length;
    while (end >= 512 && Arrays.equals(Arrays.copyOfRange(whole, end - 512, end), new byte[512])) {
      end -= 512;
    }
    Path unended = Files.write(dir.resolve("unended.tar"), Arrays.copyOf(whole, end));
    String warning = ": the archive ends at offset " + end + " without its end-of-archive blocks (truncated? GNU tar"
        + " takes the members before it)\n";
    Cli.Result file = tar(new byte[0], unended.toString(), dir.resolve("out.tar").toString());
    assertEquals(0, file.status(), file::toString);
    assertEquals("relabel: " + unended + warning, file.err());
    Cli.Result stdin = tar(Arrays.copyOf(whole, end), "--check");
    assertEquals(ExitStatus.TAR_DIFFERS, stdin.status(), stdin::toString);
    assertTrue(stdin.err().startsWith("relabel: standard input" + warning), stdin::toString);
  }

  @Test
  void checkSummarisesAndExitsOneWhenALabelDiffers() throws Exception {
    Cli.Result unlabelled = tar(new byte[0], "--check", archive.toString());
    assertEquals(ExitStatus.TAR_DIFFERS, unlabelled.status(), unlabelled::toString);
    String text = unlabelled.outLatin1();
    assertTrue(text.startsWith("Check of " + archive + ":\n  10 of 10 entries have a label other than the policy's"
        + " (0 left alone by it)\n"), text);
    assertTrue(text.contains("By directory:\n"), text);
    assertTrue(text.contains("         3  (unlabeled) -> etc_t\n"), text);
    Path out = dir.resolve("out.tar");
    assertEquals(0, tar(new byte[0], archive.toString(), out.toString()).status());
    Cli.Result labelled = tar(new byte[0], "--check", out.toString());
    assertEquals(0, labelled.status(), labelled::toString);
    assertTrue(labelled.outLatin1().contains("  0 of 10 entries have a label other than the policy's"), labelled::toString);
    // cut inside the first file's data (./, ./etc/, then ./etc/a.conf's header and data)
    Cli.Result broken = tar(Arrays.copyOf(Files.readAllBytes(archive), 3 * 512 + 4), "--check");
    assertEquals(ExitStatus.TAR_CHECK_ERROR, broken.status(), broken::toString);
    assertTrue(broken.err().contains("the archive ends inside the member's data (truncated)"), broken::toString);

    Cli.Result json = tar(new byte[0], "--check", "--json", archive.toString());
    assertEquals(ExitStatus.TAR_DIFFERS, json.status(), json::toString);
    JsonNode report = JsonMapper.builder().build().readTree(json.out());
    assertEquals(10, report.get("counts").get("relabeled").asInt(), report::toString);
    assertEquals(3, report.get("summary").get("byTransition").get(0).get("count").asInt(), report::toString);
    assertTrue(json.err().contains("10 of 10 entries have a label other than the policy's"), json::toString);
  }

  @Test
  void aDirectoryIsArchivedWithThePolicysLabelsAndItsOwnLeftAlone() throws Exception {
    AttrTrees.requireTools(false);
    AttrTrees.setLabel(tree.resolve("etc/a.conf"), "system_u:object_r:tmp_t:s0", dir);
    Path out = dir.resolve("dir.tar");
    Cli.Result r = tar(new byte[0], "-C", tree.toString(), out.toString());
    assertEquals(0, r.status(), r::toString);
    assertEquals("system_u:object_r:tmp_t:s0", AttrTrees.label(tree.resolve("etc/a.conf"), dir));
    List<String> dump = TarTools.dump(out, dir);
    assertEquals(10, dump.size(), dump::toString);
    for (String line : dump) {
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      if (name.equals("./etc/a.conf")) {
        assertEquals("system_u:object_r:etc_t:s0\0", TarTools.labelOf(line));
      }
    }
    // the same members, in the same order, as GNU tar --sort=name writes them
    assertEquals(TarTools.listing(archive, dir), TarTools.listing(out, dir));
    Cli.Result check = tar(new byte[0], "--check", "-C", tree.toString());
    assertEquals(ExitStatus.TAR_DIFFERS, check.status(), check::toString);
  }

  /**
   * A bind mount in the directory, even one of the directory itself (a cycle, which setfiles and
   * chcon refuse to enter): GNU tar archives what each name shows, the bound tree again under the
   * mount point's name (once: a bind shows its own mount point empty), its files as files, not as
   * hard links (each has one link). So does relabel tar -C: the same members, none left out.
   */
  @Test
  void aBindMountInTheDirectoryIsArchivedAsGnuTarArchivesIt() throws Exception {
    Path point = Files.createDirectory(tree.resolve("var/bound"));
    AttrTrees.mount(List.of("mount", "--bind", tree.toString(), point.toString()), dir);
    Path plain = dir.resolve("plain.tar");
    Path out = dir.resolve("bound.tar");
    Cli.Result r;
    try {
      AttrTrees.check(List.of("tar", "--sort=name", "-cf", plain.toString(), "-C", tree.toString(), "."), dir);
      r = tar(new byte[0], "-C", tree.toString(), out.toString());
    } finally {
      AttrTrees.check(List.of("umount", point.toString()), dir);
    }
    assertEquals(0, r.status(), r::toString);
    String listing = TarTools.listing(plain, dir);
    assertTrue(listing.contains("./var/bound/etc/a.conf") && listing.contains("./var/bound/var/bound/"), listing);
    assertEquals(listing, TarTools.listing(out, dir));
  }

  @Test
  void aDirectorysTimesSurviveExtractionTo100NanosecondsAlsoBefore1970() throws Exception {
    // GNU tar --format=posix keeps nanoseconds; Commons Compress writes a PAX mtime to 100 ns.
    Instant modified = Instant.ofEpochSecond(1_704_164_645L, 123_456_789);
    Files.setLastModifiedTime(tree.resolve("etc/a.conf"), FileTime.from(modified));
    Files.setLastModifiedTime(tree.resolve("etc/b.conf"), FileTime.from(Instant.ofEpochSecond(1_704_164_645L)));
    // before 1970: set with touch, as the JDK 17 sets a negative time as 0
    Instant before1970 = Instant.ofEpochSecond(-2, 500_000_000);
    AttrTrees.check(List.of("touch", "-d", "1969-12-31 23:59:58.5 UTC", tree.resolve("usr/bin/ls").toString()), dir);
    Path out = dir.resolve("dir.tar");
    assertEquals(0, tar(new byte[0], "-C", tree.toString(), out.toString()).status());
    Path extracted = Files.createDirectory(dir.resolve("extracted"));
    AttrTrees.check(List.of("tar", "-xf", out.toString(), "-C", extracted.toString()), dir);
    assertEquals(modified.minusNanos(89), Files.getLastModifiedTime(extracted.resolve("etc/a.conf")).toInstant());
    assertEquals(Instant.ofEpochSecond(1_704_164_645L),
        Files.getLastModifiedTime(extracted.resolve("etc/b.conf")).toInstant());
    assertEquals(before1970, Files.getLastModifiedTime(extracted.resolve("usr/bin/ls")).toInstant());
  }

  @Test
  void aPipeAsInIsReadOnceIntoATemporaryFile() throws Exception {
    // relabel tar <(zcat image.tar.gz) out.tar: IN is a pipe, which cannot be read twice
    Path fifo = dir.resolve("in.fifo");
    AttrTrees.check(List.of("mkfifo", fifo.toString()), dir);
    byte[] bytes = Files.readAllBytes(archive);
    Thread writer = new Thread(() -> {
      try {
        Files.write(fifo, bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    writer.setDaemon(true); // blocks until relabel opens the FIFO; left behind if it never does
    writer.start();
    Path fromPipe = dir.resolve("from-pipe.tar");
    Cli.Result piped = tar(new byte[0], fifo.toString(), fromPipe.toString());
    assertEquals(0, piped.status(), piped::toString);
    writer.join();
    Path fromFile = dir.resolve("from-file.tar");
    assertEquals(0, tar(new byte[0], archive.toString(), fromFile.toString()).status());
    assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(fromPipe));
    Cli.Result directory = tar(new byte[0], tree.toString(), dir.resolve("d.tar").toString());
    assertEquals(1, directory.status(), directory::toString);
    assertEquals("relabel: " + tree + ": Is a directory (-C DIR archives a directory)\n", directory.err());
  }

  @Test
  void aPipeOrSymlinkAsOutIsWrittenThroughNotReplaced() throws Exception {
    Path fromFile = dir.resolve("from-file.tar");
    assertEquals(0, tar(new byte[0], archive.toString(), fromFile.toString()).status());
    // relabel tar in.tar >(zstd > out.tar.zst): OUT is a pipe; a FIFO stands for it
    Path fifo = dir.resolve("out.fifo");
    AttrTrees.check(List.of("mkfifo", fifo.toString()), dir);
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.readAllBytes(fifo);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    Cli.Result piped = tar(new byte[0], archive.toString(), fifo.toString());
    assertEquals(0, piped.status(), piped::toString);
    // (before the read's result: a FIFO replaced by a file is never opened, and the read waits)
    assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class).isOther(), "the FIFO was replaced");
    assertArrayEquals(Files.readAllBytes(fromFile), read.get());
    // a symbolic link: the file it names gets the archive, the link stays
    Path target = Files.writeString(dir.resolve("target.tar"), "old\n");
    Path link = Files.createSymbolicLink(dir.resolve("link.tar"), target.getFileName());
    assertEquals(0, tar(new byte[0], archive.toString(), link.toString()).status());
    assertTrue(Files.isSymbolicLink(link), "the link was replaced");
    assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(target));
  }

  @Test
  void anOutInsideTheDirectoryAndASocketAreLeftOutOfItsArchive() throws Exception {
    // as GNU tar: "tar: ./out.tar: file is the archive; not dumped"; an old OUT is left out too
    Path out = Files.writeString(tree.resolve("out.tar"), "an old archive\n");
    Cli.Result r = tar(new byte[0], "-C", tree.toString(), out.toString());
    assertEquals(0, r.status(), r::toString);
    assertEquals("relabel: " + out + ": file is the archive; not dumped\n", r.err());
    Path got = Files.move(out, dir.resolve("got.tar"));
    // and a socket, which GNU tar leaves out saying "socket ignored"
    AttrTrees.check(List.of("python3", "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])",
        tree.resolve("etc/sock").toString()), dir);
    Cli.Result socket = tar(new byte[0], "-C", tree.toString(), dir.resolve("socket.tar").toString());
    assertEquals(0, socket.status(), socket::toString);
    assertEquals("relabel: " + tree + ": ./etc/sock: socket ignored\n", socket.err());
    Files.delete(tree.resolve("etc/sock"));
    Path expected = dir.resolve("expected.tar");
    assertEquals(0, tar(new byte[0], "-C", tree.toString(), expected.toString()).status());
    String names = AttrTrees.check(List.of("tar", "-tf", got.toString()), dir);
    assertFalse(names.contains("out.tar"), names);
    assertEquals(AttrTrees.check(List.of("tar", "-tf", expected.toString()), dir), names);
  }

  /**
   * DIR is changed into as tar -C DIR changes into it: a symbolic link to a directory archives that
   * directory (it was "not a directory"); a link met below DIR is archived as a link, never
   * followed. DIR missing or not a directory is said as tar says it, with or without --check.
   */
  @Test
  void dirIsFollowedAsTarFollowsItAndNothingBelowIt() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link"), tree.getFileName());
    Files.createSymbolicLink(tree.resolve("usr/lib"), Path.of("bin"));
    Path expected = dir.resolve("expected.tar");
    AttrTrees.check(List.of("tar", "--sort=name", "-cf", expected.toString(), "-C", link.toString(), "."), dir);
    Path out = dir.resolve("through-link.tar");
    Cli.Result r = tar(new byte[0], "-C", link.toString(), out.toString());
    assertEquals(0, r.status(), r::toString);
    assertEquals(TarTools.listing(expected, dir), TarTools.listing(out, dir));
    Cli.Result check = tar(new byte[0], "--check", "-C", link.toString());
    assertEquals(ExitStatus.TAR_DIFFERS, check.status(), check::toString);

    Path file = dir.resolve("file_contexts");
    Path absent = dir.resolve("absent");
    for (Path notDirectory : List.of(file, absent, Files.createSymbolicLink(dir.resolve("dangling"), absent))) {
      String reason = notDirectory.equals(file) ? "Not a directory" : "No such file or directory";
      Cli.Result archived = tar(new byte[0], "-C", notDirectory.toString(), dir.resolve("o.tar").toString());
      assertEquals(1, archived.status(), archived::toString);
      assertEquals("relabel: " + notDirectory + ": " + reason + "\n", archived.err());
      Cli.Result checked = tar(new byte[0], "--check", "-C", notDirectory.toString());
      assertEquals(ExitStatus.TAR_CHECK_ERROR, checked.status(), checked::toString);
      assertEquals("relabel: " + notDirectory + ": " + reason + "\n", checked.err());
    }
    assertFalse(Files.exists(dir.resolve("o.tar")));
  }

  @Test
  void outKeepsItsModeAndANewOneIsReadable() throws Exception {
    Path kept = Files.writeString(dir.resolve("kept.tar"), "an old archive\n");
    Files.setPosixFilePermissions(kept, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
    assertEquals(0, tar(new byte[0], archive.toString(), kept.toString()).status());
    assertEquals("rw-r-----", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
    Path fresh = dir.resolve("fresh.tar");
    assertEquals(0, tar(new byte[0], archive.toString(), fresh.toString()).status());
    assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
    assertArrayEquals(Files.readAllBytes(kept), Files.readAllBytes(fresh));
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith(".")).toList());
    }
  }

  @Test
  void usageErrors() {
    Cli.Result json = tar(new byte[0], "--json", archive.toString());
    assertEquals(1, json.status());
    assertTrue(json.err().contains("--json writes the report on standard output: give OUT, or --check"), json::toString);
    Cli.Result checkOut = tar(new byte[0], "--check", archive.toString(), "out.tar");
    assertEquals(1, checkOut.status());
    assertTrue(checkOut.err().contains("--check writes no archive"), checkOut::toString);
    Cli.Result missing = tar(new byte[0], dir.resolve("absent.tar").toString(), dir.resolve("o.tar").toString());
    assertEquals(1, missing.status());
    assertTrue(missing.err().endsWith("absent.tar: No such file or directory\n"), missing::toString);
    // OUT where it cannot be: named as given, not as the temporary beside it
    Path nowhere = dir.resolve("absent/o.tar");
    Cli.Result noDirectory = tar(new byte[0], archive.toString(), nowhere.toString());
    assertEquals(1, noDirectory.status());
    assertEquals("relabel: " + nowhere + ": No such file or directory\n", noDirectory.err());
    Cli.Result isDirectory = tar(new byte[0], archive.toString(), dir.toString());
    assertEquals(1, isDirectory.status());
    assertEquals("relabel: " + dir + ": Is a directory\n", isDirectory.err());
    // "/" has no last name to tell a codec by (it was an internal error)
    Cli.Result root = tar(new byte[0], archive.toString(), "/");
    assertEquals(1, root.status(), root::toString);
    assertEquals("relabel: /: Is a directory\n", root.err());
  }
}
