package dev.relabel.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.AttrTrees.Run;
import dev.relabel.fixtures.TarTools;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TarLabeller} on archives GNU tar made of a tree with every kind of entry (directories,
 * files, a 3 MiB file, a sparse file, symlinks, a FIFO, character and block devices, hard links under specs that
 * label them differently, a name that is not UTF-8, names over 100 and 255 bytes), in each format
 * GNU tar writes, read back by Python's {@code tarfile} and GNU tar: every member's fields and
 * data and GNU tar's listing unchanged and in order, each label libselinux's answer for the path
 * with Debian's policy (a hard link's: its smallest name's; a record that holds it already is kept).
 */
class TarLabellerTest {
  private static final String LONG = "l".repeat(120);

  @TempDir
  static Path base;
  private static Path tree;
  private static LabelMatcher matcher;
  private static LibSelinux reference;

  @BeforeAll
  static void buildTree() throws Exception {
    TarTools.require();
    AttrTrees.requireTools(false);
    tree = base.resolve("tree");
    for (String dir : List.of("etc/ssh", "usr/bin", "usr/sbin", "var/log", "dev", "home/alice/" + LONG + "/" + LONG)) {
      Files.createDirectories(tree.resolve(dir));
    }
    Files.writeString(tree.resolve("etc/hosts"), "127.0.0.1 localhost\n");
    Files.writeString(tree.resolve("etc/ssh/sshd_config"), "Port 22\n");
    Files.write(tree.resolve("usr/bin/big"), new byte[3 << 20]);
    Files.writeString(tree.resolve("usr/sbin/sshd"), "#!/bin/sh\n");
    Files.createLink(tree.resolve("etc/sshd-link"), tree.resolve("usr/sbin/sshd"));
    Files.createSymbolicLink(tree.resolve("usr/bin/sh"), Path.of("dash"));
    Files.writeString(tree.resolve("home/alice/" + LONG + "/" + LONG + "/notes"), "long\n");
    AttrTrees.check(List.of("mkfifo", tree.resolve("var/log/fifo").toString()), base);
    // a sparse file of seven data regions: GNU's sparse header holds four, an extension block the rest
    AttrTrees.check(List.of("sh", "-c", "for i in 0 1 2 3 4 5 6; do printf 'region %s' $i"
        + " | dd of=\"$1\" bs=1 seek=$((i * 1048576)) conv=notrunc 2>/dev/null; done", "sh",
        tree.resolve("var/log/sparse").toString()), base);
    AttrTrees.check(List.of("mknod", tree.resolve("dev/null").toString(), "c", "1", "3"), base);
    AttrTrees.check(List.of("mknod", tree.resolve("dev/loop0").toString(), "b", "7", "0"), base);
    AttrTrees.touchRaw(tree.resolve("etc"), "caf\u00e9-\u00ff.conf", base);
    AttrTrees.touchRaw(tree.resolve("home/alice/" + LONG + "/" + LONG), "\u00e9t\u00e9-\u00ff", base);
    AttrTrees.setLabel(tree.resolve("etc/hosts"), "system_u:object_r:tmp_t:s0", base);
    AttrTrees.setLabel(tree.resolve("usr/bin"), "system_u:object_r:bin_t:s0", base);
    matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    reference = LibSelinux.open(Oracles.DEBIAN_FILE_CONTEXTS);
  }

  @AfterAll
  static void close() {
    if (reference != null) {
      reference.close();
    }
  }

  private static Path archive(String format, String name) throws Exception {
    Path archive = base.resolve(name);
    List<String> command = new ArrayList<>(List.of("tar", "--format=" + format, "--sparse"));
    if (format.equals("posix")) {
      command.addAll(List.of("--xattrs", "--xattrs-include=*"));
    }
    command.addAll(List.of("-cf", archive.toString(), "-C", tree.toString(), "."));
    AttrTrees.check(command, base);
    return archive;
  }

  private static Path label(Path in, String name, int threads, List<String> warnings) throws IOException {
    Path out = base.resolve(name);
    try (var file = Files.newOutputStream(out)) {
      TarLabeller.builder(matcher).threads(threads).listener(warningsInto(warnings)).build().label(TarSource.of(in), file);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"gnu", "posix", "oldgnu"})
  void everyMemberKeepsItsFieldsAndDataAndGetsThePolicysLabel(String format) throws Exception {
    Path in = archive(format, format + ".tar");
    List<String> warnings = new ArrayList<>();
    Path out = label(in, format + "-labelled.tar", 2, warnings);
    List<String> before = TarTools.dump(in, base);
    List<String> after = TarTools.dump(out, base);
    assertEquals(TarTools.withoutLabels(before), TarTools.withoutLabels(after));
    assertEquals(TarTools.listing(in, base), TarTools.listing(out, base));
    assertTrue(before.size() > 15, before::toString);
    Map<String, String> expected = expectedLabels(before);
    int labelled = 0;
    for (String line : after) {
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      assertEquals(expected.get(name), TarTools.labelOf(line), name);
      labelled++;
    }
    assertEquals(before.size(), labelled);
    assertEquals(List.of("conflicting specifications for /usr/sbin/sshd and /etc/sshd-link, using "
        + reference.lookup(bytes("/etc/sshd-link"), 0100000).orElseThrow() + "."), warnings);
  }

  @Test
  void ustarWithoutLongNamesToo() throws Exception {
    Path small = base.resolve("small");
    Files.createDirectories(small.resolve("etc"));
    Files.writeString(small.resolve("etc/passwd"), "root:x:0:0::/root:/bin/sh\n");
    AttrTrees.touchRaw(small.resolve("etc"), "na\u00efve", base);
    Path in = base.resolve("ustar.tar");
    AttrTrees.check(List.of("tar", "--format=ustar", "-cf", in.toString(), "-C", small.toString(), "."), base);
    Path out = label(in, "ustar-labelled.tar", 1, new ArrayList<>());
    List<String> before = TarTools.dump(in, base);
    List<String> after = TarTools.dump(out, base);
    assertEquals(TarTools.withoutLabels(before), TarTools.withoutLabels(after));
    assertEquals(TarTools.listing(in, base), TarTools.listing(out, base));
    Map<String, String> expected = expectedLabels(before);
    for (String line : after) {
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      assertEquals(expected.get(name), TarTools.labelOf(line), name);
    }
  }

  @Test
  void gnuTarExtractsTheLabels() throws Exception {
    Path out = label(archive("gnu", "extract.tar"), "extract-labelled.tar", 1, new ArrayList<>());
    Path extracted = Files.createDirectory(base.resolve("extracted"));
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-xpf", out.toString(), "-C",
        extracted.toString()), base);
    String hosts = AttrTrees.label(extracted.resolve("etc/hosts"), base);
    assertEquals(reference.lookup(bytes("/etc/hosts"), 0100000).orElseThrow(), hosts);
    assertEquals(AttrTrees.hex(reference.lookup(bytes("/dev/null"), 0020000).orElseThrow()),
        AttrTrees.labels(extracted, base).get("dev/null"));
  }

  @Test
  void anExistingLabelRecordIsReplacedAndTheOthersKept() throws Exception {
    Path in = archive("posix", "existing.tar");
    String hostsBefore = lineFor(TarTools.dump(in, base), "./etc/hosts");
    assertEquals("system_u:object_r:tmp_t:s0", TarTools.labelOf(hostsBefore));
    Path out = label(in, "existing-labelled.tar", 1, new ArrayList<>());
    String hostsAfter = lineFor(TarTools.dump(out, base), "./etc/hosts");
    assertEquals(reference.lookup(bytes("/etc/hosts"), 0100000).orElseThrow() + "\0", TarTools.labelOf(hostsAfter));
    // Only the label record differs: mtime, atime and ctime records come back as they were.
    String records = AttrTrees.check(List.of("python3", "-c", "import sys, tarfile\n"
        + "for m in tarfile.open(sys.argv[1]):\n"
        + "    print(m.name, sorted((k, v) for k, v in m.pax_headers.items() if 'selinux' not in k))",
        in.toString()), base);
    String recordsAfter = AttrTrees.check(List.of("python3", "-c", "import sys, tarfile\n"
        + "for m in tarfile.open(sys.argv[1]):\n"
        + "    print(m.name, sorted((k, v) for k, v in m.pax_headers.items() if 'selinux' not in k))",
        out.toString()), base);
    assertEquals(records, recordsAfter);
    assertTrue(records.contains("'mtime'"), records);
  }

  @Test
  void anRhtRecordGetsTheLabelTooAndNoneLeavesTheLabelAlone() throws Exception {
    Path policy = base.resolve("rht_file_contexts");
    Files.writeString(policy, "/.*\tsystem_u:object_r:etc_t:s0\n/keep\t<<none>>\n");
    Path src = Files.createDirectories(base.resolve("rht"));
    Files.writeString(src.resolve("keep"), "k");
    Files.writeString(src.resolve("change"), "c");
    // A PAX archive with RHT.security.selinux records, as GNU tar --selinux (Red Hat's) writes them
    // and restores them: a relabelled member carries its label there too.
    Path in = base.resolve("rht.tar");
    AttrTrees.check(List.of("python3", "-c", "import sys, tarfile\n"
        + "with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:\n"
        + "    for n in ('keep', 'change'):\n"
        + "        i = t.gettarinfo(sys.argv[2] + '/' + n, n)\n"
        + "        i.mtime = 1700000000\n"
        + "        i.pax_headers = {'RHT.security.selinux': 'user_u:object_r:old_t:s0', 'comment': 'kept'}\n"
        + "        t.addfile(i, open(sys.argv[2] + '/' + n, 'rb'))\n", in.toString(), src.toString()), base);
    LabelMatcher small = LabelMatcher.compile(PolicyLoader.validating().load(policy));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<RelabelReport.Change> changes = new ArrayList<>();
    RelabelReport report = TarLabeller.builder(small).listener(new RelabelListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        changes.add(change);
      }
    }).build().label(TarSource.of(in), out);
    Path labelled = Files.write(base.resolve("rht-labelled.tar"), out.toByteArray());
    String headers = paxHeaders(labelled);
    assertEquals("keep [('RHT.security.selinux', 'user_u:object_r:old_t:s0'), ('comment', 'kept')]\n"
        + "change [('RHT.security.selinux', 'system_u:object_r:etc_t:s0'),"
        + " ('SCHILY.xattr.security.selinux', 'system_u:object_r:etc_t:s0\\x00'), ('comment', 'kept')]\n",
        headers);
    assertEquals(2, report.visited());
    assertEquals(1, report.relabeled());
    assertEquals(1, report.unmatched());
    assertEquals("user_u:object_r:old_t:s0", changes.get(0).from());
    // The member left alone is byte for byte what it was: the two archives share their start.
    byte[] original = Files.readAllBytes(in);
    assertArrayEquals(Arrays.copyOf(original, 1536), Arrays.copyOf(out.toByteArray(), 1536));
  }

  @Test
  void aMemberIsRightOnlyWhenEveryLabelRecordIsRight() throws Exception {
    // GNU tar --selinux restores RHT.security.selinux, --xattrs the SCHILY record, bsdtar the
    // LIBARCHIVE and SCHILY ones: a wrong one beside a right one is still wrong; a right record
    // alone is kept as it is. A wrong member gets the label in each kind of record it had.
    Path policy = base.resolve("mixed_file_contexts");
    Files.writeString(policy, "/.*\tsystem_u:object_r:etc_t:s0\n");
    Path src = Files.createDirectories(base.resolve("mixed"));
    Path in = base.resolve("mixed.tar");
    List<String> names = List.of("mixed", "rht-right", "libarchive-wrong", "libarchive-right");
    for (String n : names) {
      Files.writeString(src.resolve(n), n);
    }
    AttrTrees.check(List.of("python3", "-c", "import base64, sys, tarfile\n"
        + "right = 'system_u:object_r:etc_t:s0'\n"
        + "def b64(context): return base64.b64encode(context.encode()).decode().rstrip('=')\n"
        + "records = {'mixed': {'SCHILY.xattr.security.selinux': right + '\\x00',"
        + " 'RHT.security.selinux': 'system_u:object_r:shadow_t:s0'}, 'rht-right': {'RHT.security.selinux': right},"
        + " 'libarchive-wrong': {'LIBARCHIVE.xattr.security.selinux': b64('system_u:object_r:shadow_t:s0'),"
        + " 'SCHILY.xattr.security.selinux': right + '\\x00'},"
        + " 'libarchive-right': {'LIBARCHIVE.xattr.security.selinux': b64(right + '\\x00')}}\n"
        + "with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:\n"
        + "    for n in sys.argv[3:]:\n"
        + "        i = t.gettarinfo(sys.argv[2] + '/' + n, n)\n"
        + "        i.mtime = 1700000000\n"
        + "        i.pax_headers = records[n]\n"
        + "        t.addfile(i, open(sys.argv[2] + '/' + n, 'rb'))\n", in.toString(), src.toString(), names.get(0),
        names.get(1), names.get(2), names.get(3)), base);
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(policy));
    assertEquals(2, TarLabeller.builder(matcher).build().check(TarSource.of(in)).relabeled());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TarLabeller.builder(matcher).build().label(TarSource.of(in), out);
    Path labelled = Files.write(base.resolve("mixed-labelled.tar"), out.toByteArray());
    String headers = paxHeaders(labelled);
    String etc = "system_u:object_r:etc_t:s0";
    String etcBase64 = java.util.Base64.getEncoder().withoutPadding().encodeToString((etc + "\0").getBytes());
    assertEquals("mixed [('RHT.security.selinux', '" + etc + "'), ('SCHILY.xattr.security.selinux', '" + etc
        + "\\x00')]\n"
        + "rht-right [('RHT.security.selinux', '" + etc + "')]\n"
        + "libarchive-wrong [('LIBARCHIVE.xattr.security.selinux', '" + etcBase64 + "'),"
        + " ('SCHILY.xattr.security.selinux', '" + etc + "\\x00')]\n"
        + "libarchive-right [('LIBARCHIVE.xattr.security.selinux', '" + etcBase64 + "')]\n", headers);
    assertEquals(0, TarLabeller.builder(matcher).build().check(TarSource.of(labelled)).relabeled());
  }

  @Test
  void aChangeSaysFromTheRecordThatMadeTheMemberWrong() throws Exception {
    LabelMatcher matcher = matcher("from_file_contexts", "/.*\tsystem_u:object_r:etc_t:s0\n");
    Path in = python("from.tar", "import io, sys, tarfile\n"
        + "with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:\n"
        + "    i = tarfile.TarInfo('mixed'); i.size = 1\n"
        + "    i.pax_headers = {'SCHILY.xattr.security.selinux': 'system_u:object_r:etc_t:s0\\x00',"
        + " 'RHT.security.selinux': 'system_u:object_r:shadow_t:s0'}\n"
        + "    t.addfile(i, io.BytesIO(b'x'))\n");
    List<RelabelReport.Change> changes = new ArrayList<>();
    TarLabeller.builder(matcher).listener(new RelabelListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        changes.add(change);
      }
    }).build().check(TarSource.of(in));
    assertEquals(1, changes.size());
    assertEquals("system_u:object_r:shadow_t:s0", changes.get(0).from());
  }

  @Test
  void conflictsOfOneInodeReadAsSetfilesChain() throws Exception {
    // What setfiles says on the extracted tree, meeting the names in byte order: each name whose
    // label differs from the deciding one's, against the name reported before it; /c agrees.
    LabelMatcher matcher = matcher("chain_file_contexts", "/.*\tsystem_u:object_r:etc_t:s0\n"
        + "/b\tsystem_u:object_r:bin_t:s0\n/d\tsystem_u:object_r:lib_t:s0\n");
    Path in = python("chain.tar", "import io, sys, tarfile\n"
        + "t = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)\n"
        + "m = tarfile.TarInfo('a'); m.size = 2; t.addfile(m, io.BytesIO(b'x\\n'))\n"
        + "for name in ['d', 'c', 'b']:\n"
        + "    m = tarfile.TarInfo(name); m.type = tarfile.LNKTYPE; m.linkname = 'a'; t.addfile(m)\n"
        + "t.close()\n");
    List<String> warnings = new ArrayList<>();
    TarLabeller.builder(matcher).listener(warningsInto(warnings)).build().check(TarSource.of(in));
    assertEquals(List.of("conflicting specifications for /b and /a, using system_u:object_r:etc_t:s0.",
        "conflicting specifications for /d and /b, using system_u:object_r:etc_t:s0."), warnings);
  }

  @Test
  void aNameLinkedAgainJoinsItsNewInode() throws Exception {
    // GNU tar extracts "l" as a link to "a", then unlinks it and links it to "b": "a" is left alone
    // in its inode and "l" shares "b"'s, so the conflict setfiles would see is between /b and /l.
    LabelMatcher matcher = matcher("relink_file_contexts", "/.*\tsystem_u:object_r:etc_t:s0\n"
        + "/a\tsystem_u:object_r:bin_t:s0\n/b\tsystem_u:object_r:lib_t:s0\n/l\tsystem_u:object_r:tmp_t:s0\n");
    Path in = python("relink.tar", "import io, sys, tarfile\n"
        + "t = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)\n"
        + "for name in ['a', 'b']:\n"
        + "    m = tarfile.TarInfo(name); m.size = 2; t.addfile(m, io.BytesIO(b'x\\n'))\n"
        + "for target in ['a', 'b']:\n"
        + "    m = tarfile.TarInfo('l'); m.type = tarfile.LNKTYPE; m.linkname = target; t.addfile(m)\n"
        + "t.close()\n");
    List<String> warnings = new ArrayList<>();
    Path labelled = base.resolve("relink-labelled.tar");
    try (var out = Files.newOutputStream(labelled)) {
      TarLabeller.builder(matcher).listener(warningsInto(warnings)).build().label(TarSource.of(in), out);
    }
    assertEquals(List.of("conflicting specifications for /l and /b, using system_u:object_r:lib_t:s0."), warnings);
    assertEquals("""
        a [('SCHILY.xattr.security.selinux', 'system_u:object_r:bin_t:s0\\x00')]
        b [('SCHILY.xattr.security.selinux', 'system_u:object_r:lib_t:s0\\x00')]
        l []
        l []
        """, paxHeaders(labelled));
  }

  @Test
  void aMemberOfAnUnknownTypeIsLabelledAsTheRegularFileGnuTarExtracts() throws Exception {
    // GNU tar: "etc/shadow: Unknown file type 'Q', extracted as normal file".
    LabelMatcher matcher = matcher("typeflag_file_contexts",
        "/.*\tsystem_u:object_r:etc_t:s0\n/etc/shadow\t--\tsystem_u:object_r:shadow_t:s0\n");
    Path in = python("typeflag.tar", "import sys\n"
        + "h = bytearray(512); h[0:10] = b'etc/shadow'; h[100:108] = b'0000644\\0'; h[108:116] = b'0000000\\0'\n"
        + "h[116:124] = b'0000000\\0'; h[124:136] = b'%011o\\0' % 3; h[136:148] = b'13000000000\\0'\n"
        + "h[156:157] = b'Q'; h[257:265] = b'ustar\\x0000'; h[148:156] = b' ' * 8; h[148:156] = b'%06o\\0 ' % sum(h)\n"
        + "open(sys.argv[1], 'wb').write(bytes(h) + b'abc'.ljust(512, b'\\0') + b'\\0' * 1024)\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(1, TarLabeller.builder(matcher).build().label(TarSource.of(in), out).relabeled());
    Path labelled = Files.write(base.resolve("typeflag-labelled.tar"), out.toByteArray());
    assertEquals("etc/shadow [('SCHILY.xattr.security.selinux', 'system_u:object_r:shadow_t:s0\\x00')]\n",
        paxHeaders(labelled));
  }

  @Test
  void everyTypeFlagIsLabelledAsTheFileGnuTarExtractsFromIt() throws Exception {
    // One member of each type flag, '!' to '~' and NUL, a hard link or symlink to etc/tgt where
    // the flag makes one; not the seven that are no file of their own: x X g K L (headers for what
    // follows), V (a volume label) and M (a file continued from another volume, which GNU tar
    // will not extract alone). Each again with a name ending in '/' (GNU tar extracts a regular
    // file's flags so named as a directory), and names holding "." and "//", which GNU tar extracts
    // where the kernel resolves them. The policy gives each file type its own context.
    String types = "/.*\tsystem_u:object_r:etc_t:s0\n/etc/tgt\t--\tsystem_u:object_r:shadow_t:s0\n";
    for (String type : List.of("-- shadow_t", "-d bin_t", "-l lib_t", "-c device_t", "-b fixed_disk_device_t",
        "-p var_run_t")) {
      String[] parts = type.split(" ");
      types += "/etc/f-.*\t" + parts[0] + "\tsystem_u:object_r:" + parts[1] + ":s0\n";
    }
    Path policy = Files.writeString(base.resolve("typeflags_file_contexts"), types);
    Path in = python("typeflags.tar", "import sys\n"
        + "def header(name, flag):\n"
        + "    h = bytearray(512); h[0:len(name)] = name; h[100:108] = b'0000644\\0'; h[108:116] = b'0000000\\0'\n"
        + "    h[116:124] = b'0000000\\0'; h[124:136] = b'%011o\\0' % 0; h[136:148] = b'13000000000\\0'\n"
        + "    h[156:157] = flag; h[157:164] = b'etc/tgt'; h[257:265] = b'ustar\\x0000'\n"
        + "    h[148:156] = b' ' * 8; h[148:156] = b'%06o\\0 ' % sum(h)\n"
        + "    return bytes(h)\n"
        + "out = header(b'etc/', b'5') + header(b'etc/tgt', b'0')\n"
        + "for b in [0] + [b for b in range(0x21, 0x7f) if bytes([b]) not in b'gxXKLVM']:\n"
        + "    out += header(b'etc/f-%02x' % b, bytes([b])) + header(b'etc/f-%02x-slash/' % b, bytes([b]))\n"
        + "out += header(b'./etc/./f-dot', b'0') + header(b'etc//f-double', b'0')\n"
        + "open(sys.argv[1], 'wb').write(out + b'\\0' * 1024)\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TarLabeller.builder(LabelMatcher.compile(PolicyLoader.validating().load(policy))).build()
        .label(TarSource.of(in), out);
    Path labelled = Files.write(base.resolve("typeflags-labelled.tar"), out.toByteArray());
    // the reference: GNU tar extracts the input, setfiles -F labels what it made
    Path reference = Files.createDirectory(base.resolve("typeflags-reference"));
    AttrTrees.check(List.of("tar", "-xf", in.toString(), "-C", reference.toString()), base);
    AttrTrees.check(List.of(AttrTrees.SETFILES.toString(), "-F", "-r", reference.toString(), policy.toString(),
        reference.toString()), base);
    Path ours = Files.createDirectory(base.resolve("typeflags-ours"));
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-xf", labelled.toString(), "-C",
        ours.toString()), base);
    Map<String, String> expected = AttrTrees.labels(reference, base);
    Map<String, String> actual = AttrTrees.labels(ours, base);
    expected.remove("."); // setfiles labels the extraction's root, which no member names
    actual.remove(".");
    assertEquals(180, expected.size(), expected::toString);
    assertEquals(expected.keySet(), actual.keySet());
    assertEquals(List.of(), expected.keySet().stream().filter(name -> !expected.get(name).equals(actual.get(name)))
        .map(name -> name + ": setfiles " + expected.get(name) + ", relabel " + actual.get(name)).toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "bzip2", "xz", "zstd"})
  void compressedInputIsDetected(String codec) throws Exception {
    Path plain = archive("gnu", "codec-" + codec + ".tar");
    Path compressed = base.resolve("codec." + codec);
    AttrTrees.check(List.of("sh", "-c", codec + " -c < \"$1\" > \"$2\"", "sh", plain.toString(),
        compressed.toString()), base);
    byte[] fromPlain = Files.readAllBytes(label(plain, "codec-plain-out.tar", 1, new ArrayList<>()));
    byte[] fromCompressed = Files.readAllBytes(label(compressed, "codec-out.tar", 1, new ArrayList<>()));
    assertArrayEquals(fromPlain, fromCompressed);
    assertNotEquals(Codec.NONE, Codec.detect(Files.newInputStream(compressed)).codec());
    // and written: the codec's own tool reads what Codec writes
    Path written = base.resolve("written." + codec);
    try (var file = Files.newOutputStream(written); var out = Codec.named(codec).orElseThrow().compress(file)) {
      out.write(fromPlain);
    }
    Path decompressed = base.resolve("decompressed-" + codec + ".tar");
    AttrTrees.check(List.of("sh", "-c", codec + " -dc < \"$1\" > \"$2\"", "sh", written.toString(),
        decompressed.toString()), base);
    assertArrayEquals(fromPlain, Files.readAllBytes(decompressed));
  }

  @Test
  void threadsDoNotChangeTheOutput() throws Exception {
    Path in = archive("posix", "threads.tar");
    byte[] one = Files.readAllBytes(label(in, "threads-1.tar", 1, new ArrayList<>()));
    byte[] four = Files.readAllBytes(label(in, "threads-4.tar", 4, new ArrayList<>()));
    assertArrayEquals(one, four);
  }

  /**
   * What is held between reading a member and writing it stays within the window's bytes, counted
   * with the members' headers: an archive of 60 files of 1 MB, and one of 3,000 members named
   * 20 KB each (a tree ~10,000 directories deep gives such names). The window used to be flushed
   * only by member count (4,096), so both were held whole: 60 MB, and ~120 MB of headers.
   */
  @ParameterizedTest
  @ValueSource(strings = {"big-data", "long-names"})
  void whatIsHeldBetweenReadingAndWritingIsBounded(String shape) throws Exception {
    Path in = python("window-" + shape + ".tar", "import io, sys, tarfile\n"
        + "with tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT) as tar:\n"
        + ("big-data".equals(shape)
            ? "  for i in range(60):\n"
              + "    info = tarfile.TarInfo('data/f%d' % i); info.size = 1000000\n"
              + "    tar.addfile(info, io.BytesIO(bytes(info.size)))\n"
            : "  for i in range(3000):\n"
              + "    tar.addfile(tarfile.TarInfo('deep/' + 'd/' * 10000 + 'f%d' % i))\n"));
    long[] read = {0};
    long[] mostHeld = {0};
    TarSource counted = () -> new java.io.FilterInputStream(Files.newInputStream(in)) {
      { read[0] = 0; } // the pass that writes opens it last

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        read[0] += Math.max(n, 0);
        return n;
      }
    };
    java.io.OutputStream written = new java.io.OutputStream() {
      long total;

      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        mostHeld[0] = Math.max(mostHeld[0], read[0] - total);
        total += len;
      }
    };
    TarLabeller.builder(matcher).build().label(counted, written);
    long bound = TarLabeller.WINDOW_BYTES + TarLabeller.HELD_DATA + (1 << 20); // and the streams' buffers
    assertTrue(mostHeld[0] <= bound, "held " + mostHeld[0] + " bytes of the archive, more than " + bound);
    assertTrue(read[0] > 2 * bound, "the archive is larger than the window: " + read[0]);
  }

  @Test
  void checkCountsWhatDiffersAndALabelledArchiveHasNothing() throws Exception {
    Path in = archive("posix", "check.tar");
    TarLabeller labeller = TarLabeller.builder(matcher).build();
    RelabelReport before = labeller.check(TarSource.of(in));
    Path out = label(in, "check-labelled.tar", 1, new ArrayList<>());
    RelabelReport after = labeller.check(TarSource.of(out));
    assertEquals(TarTools.dump(in, base).size(), before.visited());
    assertTrue(before.relabeled() > 10, before::toString);
    assertEquals(before.visited(), after.visited());
    assertEquals(0, after.relabeled(), after::toString);
  }

  @Test
  void truncatedAndCorruptArchivesNameTheMemberAndOffset() throws Exception {
    Path in = archive("gnu", "corrupt.tar");
    byte[] whole = Files.readAllBytes(in);
    TarLabeller labeller = TarLabeller.builder(matcher).build();
    // cut inside the 3 MiB file's data
    int big = indexOf(whole, "./usr/bin/big".getBytes(StandardCharsets.ISO_8859_1));
    ArchiveException data = corrupt(labeller, Arrays.copyOf(whole, big + 512 + 100_000), "cut-data.tar");
    assertEquals("member './usr/bin/big' at offset " + big + ": the archive ends inside the member's data (truncated)",
        data.getMessage());
    // a flipped byte in a header
    byte[] flipped = whole.clone();
    flipped[big + 3] ^= 0x20;
    ArchiveException checksum = corrupt(labeller, flipped, "flipped.tar");
    assertTrue(checksum.getMessage().endsWith("at offset " + big + ": bad header checksum (corrupt, or not a tar"
        + " archive)"), checksum.getMessage());
    // a malformed PAX record
    byte[] pax = Files.readAllBytes(archive("posix", "pax-corrupt.tar"));
    int record = indexOf(pax, " mtime=".getBytes(StandardCharsets.ISO_8859_1));
    pax[record - 1] = 'x';
    ArchiveException malformed = corrupt(labeller, pax, "pax-corrupt-bad.tar");
    assertTrue(malformed.getMessage().contains("malformed PAX record"), malformed.getMessage());
  }

  @Test
  void headerFieldsAreReadAsGnuTarReadsThem() throws Exception {
    // A file member's checksum and size fields spelt in ways GNU tar takes (one leading NUL and
    // blanks skipped, what follows the digits' NUL or blank not looked at, base-256) and ways it
    // refuses; relabel takes exactly those GNU tar lists without an error, and lists alike.
    byte[] whole = Files.readAllBytes(archive("gnu", "fields-whole.tar"));
    int hosts = indexOf(whole, "./etc/hosts\0".getBytes(StandardCharsets.ISO_8859_1));
    int length = "127.0.0.1 localhost\n".length();
    List<String> sizes = List.of(String.format("%011o\0", length), String.format("\0%010o\0", length),
        String.format("  %o\0garbage", length), String.format("%012o", length), String.format("%010o \u00ff", length),
        "\u0080" + "\0".repeat(10) + (char) length, String.format("%010oK\0", length), "\u00ff".repeat(12),
        " ".repeat(12), String.format("\0\0%09o\0", length));
    for (String field : sizes) {
      assertEquals(12, field.length(), field);
    }
    int taken = 0;
    for (int f = 0; f < sizes.size(); f++) {
      byte[] spelt = whole.clone();
      System.arraycopy(sizes.get(f).getBytes(StandardCharsets.ISO_8859_1), 0, spelt, hosts + 124, 12);
      String checksum = String.format("%06o\0 ", headerSum(spelt, hosts));
      System.arraycopy(checksum.getBytes(StandardCharsets.ISO_8859_1), 0, spelt, hosts + 148, 8);
      taken += sameAsGnuTar(spelt, "size-" + f, "size field '" + sizes.get(f) + "'") ? 1 : 0;
    }
    assertEquals(6, taken, "GNU tar should take the first six size fields");
    long sum = headerSum(whole, 0);
    String digits = String.format("%06o", sum);
    List<String> checksums = List.of(digits + "\0 ", digits + "\0K", digits + "\0\u00ff", " " + digits + "\0",
        "0" + digits + "\0", digits + "  ", digits + "\t\0", "00" + digits, "\0" + digits + " ",
        // refused
        digits + "K\0", "\0\0" + digits, "        ", String.format("%06o\0 ", sum + 1), "-" + digits + " ");
    taken = 0;
    for (int f = 0; f < checksums.size(); f++) {
      byte[] spelt = whole.clone();
      System.arraycopy(checksums.get(f).getBytes(StandardCharsets.ISO_8859_1), 0, spelt, 148, 8);
      taken += sameAsGnuTar(spelt, "checksum-" + f, "checksum field '" + checksums.get(f) + "'") ? 1 : 0;
    }
    assertEquals(9, taken, "GNU tar should take the first nine checksum fields");
    // fields GNU tar does not read: a hard link's size, an old GNU header's real size (sparse only)
    int link = indexOf(whole, "./etc/sshd-link\0".getBytes(StandardCharsets.ISO_8859_1));
    if (whole[link + 156] != '1') {
      link = indexOf(whole, "./usr/sbin/sshd\0".getBytes(StandardCharsets.ISO_8859_1)); // the second name archived
    }
    assertEquals('1', whole[link + 156]);
    for (int[] field : new int[][] {{link + 124, 12}, {hosts + 483, 12}}) {
      byte[] spelt = whole.clone();
      System.arraycopy("garbage!".getBytes(StandardCharsets.ISO_8859_1), 0, spelt, field[0], 8);
      String checksum = String.format("%06o\0 ", headerSum(spelt, field[0] / 512 * 512));
      System.arraycopy(checksum.getBytes(StandardCharsets.ISO_8859_1), 0, spelt, field[0] / 512 * 512 + 148, 8);
      assertTrue(sameAsGnuTar(spelt, "unread-" + field[0], "garbage at " + field[0]), "GNU tar should take it");
    }
  }

  @Test
  void fieldsGnuTarCannotReadButExtractsAreCopiedWithAWarning() throws Exception {
    // GNU tar reports such a field, extracts the member anyway and exits with status 2
    byte[] whole = Files.readAllBytes(archive("gnu", "unreadable-whole.tar"));
    int hosts = indexOf(whole, "./etc/hosts\0".getBytes(StandardCharsets.ISO_8859_1));
    int nul = indexOf(whole, "./dev/null\0".getBytes(StandardCharsets.ISO_8859_1));
    int sshdConfig = indexOf(whole, "./etc/ssh/sshd_config\0".getBytes(StandardCharsets.ISO_8859_1));
    Map<Integer, String> spellings = Map.of(hosts + 100, "L000644\0", hosts + 136, "K5304475260\0",
        nul + 337, "000000?\0", sshdConfig + 136, "\u00ff5304475260\0");
    byte[] spelt = whole.clone();
    spellings.forEach((at, text) -> System.arraycopy(text.getBytes(StandardCharsets.ISO_8859_1), 0, spelt, at,
        text.length()));
    for (int header : new int[] {hosts, nul, sshdConfig}) {
      String checksum = String.format("%06o\0 ", headerSum(spelt, header));
      System.arraycopy(checksum.getBytes(StandardCharsets.ISO_8859_1), 0, spelt, header + 148, 8);
    }
    Path in = Files.write(base.resolve("unreadable.tar"), spelt);
    Run gnu = AttrTrees.run(List.of("tar", "-tvf", in.toString()), base);
    assertEquals(2, gnu.status(), gnu::toString);
    assertEquals(3, gnu.err().split("where numeric").length - 1, gnu::toString);
    assertTrue(gnu.err().contains("Archive base-256 value is out of time_t range"), gnu::toString);
    List<String> warnings = new ArrayList<>();
    Path out = label(in, "unreadable-labelled.tar", 1, warnings);
    String problem = " is not a number (GNU tar says so, extracts the member and exits with status 2); copied as it is";
    // in the archive's order, which is the directory's (tar was not given --sort): compared sorted
    assertEquals(Stream.of("member './etc/hosts' at offset " + hosts + ": the mode field 'L000644'" + problem,
        "member './etc/hosts' at offset " + hosts + ": the mtime field 'K5304475260'" + problem,
        "member './dev/null' at offset " + nul + ": the devminor field '000000?'" + problem,
        "member './etc/ssh/sshd_config' at offset " + sshdConfig + ": the mtime field '\u00ff5304475260'" + problem)
        .sorted().toList(),
        warnings.stream().filter(w -> !w.startsWith("conflicting")).sorted().toList());
    assertEquals(gnu.out(), AttrTrees.run(List.of("tar", "-tvf", out.toString()), base).out());
  }

  @Test
  void aMalformedGlobalHeaderIsCopiedWithAWarning() throws Exception {
    // GNU tar: "Malformed extended header: missing blank after length", goes on, exits with status 2
    Path in = python("global.tar", "import io, sys, tarfile\n"
        + "t = tarfile.open(sys.argv[1] + '.whole', 'w', format=tarfile.PAX_FORMAT, pax_headers={'comment': 'xyz'})\n"
        + "m = tarfile.TarInfo('etc/passwd'); m.size = 2\n"
        + "t.addfile(m, io.BytesIO(b'x\\n'))\n"
        + "t.close()\n"
        + "d = bytearray(open(sys.argv[1] + '.whole', 'rb').read())\n"
        + "assert d[156:157] == b'g' and d[512:514] == b'15'\n"
        + "d[512:514] = b'1x'\n"
        + "open(sys.argv[1], 'wb').write(bytes(d))\n");
    Run gnu = AttrTrees.run(List.of("tar", "-tf", in.toString()), base);
    assertEquals(2, gnu.status(), gnu::toString);
    assertTrue(gnu.err().contains("Malformed extended header"), gnu::toString);
    assertEquals("etc/passwd\n", gnu.out());
    List<String> warnings = new ArrayList<>();
    Path out = label(in, "global-labelled.tar", 1, warnings);
    assertEquals(List.of("member '././@PaxHeader' at offset 0: the global extended header is malformed (malformed"
        + " PAX record at byte 0 of the extended header; GNU tar says so, goes on and exits with status 2);"
        + " copied as it is"), warnings);
    byte[] labelled = Files.readAllBytes(out);
    assertArrayEquals(Arrays.copyOf(Files.readAllBytes(in), 1024), Arrays.copyOf(labelled, 1024), "copied as it is");
    assertEquals(gnu.out(), AttrTrees.run(List.of("tar", "-tf", out.toString()), base).out());
    // a well-formed one is taken silently
    Path good = python("global-good.tar", "import io, sys, tarfile\n"
        + "t = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT, pax_headers={'comment': 'xyz'})\n"
        + "m = tarfile.TarInfo('etc/passwd'); m.size = 2\n"
        + "t.addfile(m, io.BytesIO(b'x\\n'))\n"
        + "t.close()\n");
    List<String> none = new ArrayList<>();
    label(good, "global-good-labelled.tar", 1, none);
    assertEquals(List.of(), none);
  }

  /** A header's sum with its checksum field counted as blanks. */
  private static long headerSum(byte[] archive, int header) {
    long sum = 8 * ' ';
    for (int i = 0; i < 512; i++) {
      sum += i >= 148 && i < 156 ? 0 : archive[header + i] & 0xff;
    }
    return sum;
  }

  /** Whether GNU tar lists {@code archive} without an error; asserts that relabel takes it alike. */
  private static boolean sameAsGnuTar(byte[] archive, String name, String what) throws Exception {
    Path in = Files.write(base.resolve(name + ".tar"), archive);
    boolean gnuTakes = AttrTrees.run(List.of("tar", "-tvf", in.toString()), base).status() == 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      TarLabeller.builder(matcher).build().label(TarSource.of(in), out);
    } catch (ArchiveException e) {
      assertTrue(e.getMessage().matches(".*(bad header checksum \\(corrupt, or not a tar archive\\)|bad size field)"),
          e.getMessage());
      assertEquals(false, gnuTakes, what.replace("\0", "\\0") + ": GNU tar takes it, relabel says " + e.getMessage());
      return false;
    }
    assertEquals(true, gnuTakes, what.replace("\0", "\\0") + ": GNU tar refuses it, relabel takes it");
    Path labelled = Files.write(base.resolve(name + "-labelled.tar"), out.toByteArray());
    assertEquals(TarTools.listing(in, base), TarTools.listing(labelled, base), what);
    return true;
  }

  @Test
  void anArchiveWithoutItsEndBlocksIsTakenAsGnuTarTakesItWithAWarning() throws Exception {
    Path in = archive("gnu", "no-end-whole.tar");
    byte[] whole = Files.readAllBytes(in);
    int end = whole.length;
    while (end > 0 && whole[end - 1] == 0) {
      end--;
    }
    int cut = (end + 511) / 512 * 512;
    Path noEnd = Files.write(base.resolve("no-end.tar"), Arrays.copyOf(whole, cut));
    List<String> warnings = new ArrayList<>();
    Path out = label(noEnd, "no-end-labelled.tar", 2, warnings);
    assertEquals("the archive ends at offset " + cut + " without its end-of-archive blocks (truncated? GNU"
        + " tar takes the members before it)", warnings.get(warnings.size() - 1));
    // GNU tar lists the input (silently) and the output alike; the output is a whole archive
    assertEquals(TarTools.listing(noEnd, base), TarTools.listing(out, base));
    byte[] labelled = Files.readAllBytes(out);
    assertArrayEquals(new byte[1024], Arrays.copyOfRange(labelled, labelled.length - 1024, labelled.length));
    assertEquals(expectedLabels(TarTools.dump(in, base)).size(), TarTools.dump(out, base).size());
  }

  @Test
  void anArchiveEndingInsideAHeaderBlockIsTakenAsGnuTarTakesItWithAWarning() throws Exception {
    // GNU tar ignores a last, partial block (exit status 0, no message), also after a long name
    Path in = archive("gnu", "partial-whole.tar");
    byte[] whole = Files.readAllBytes(in);
    int big = indexOf(whole, "./usr/bin/big".getBytes(StandardCharsets.ISO_8859_1));
    int longName = indexOf(whole, "././@LongLink".getBytes(StandardCharsets.ISO_8859_1));
    for (int cut : new int[] {big + 1, big + 200, big + 511, longName + 1024 + 300}) {
      Path partial = Files.write(base.resolve("partial-" + cut + ".tar"), Arrays.copyOf(whole, cut));
      List<String> warnings = new ArrayList<>();
      Path out = label(partial, "partial-" + cut + "-labelled.tar", 1, warnings);
      int block = cut / 512 * 512;
      assertTrue(warnings.get(warnings.size() - 1).endsWith("the archive ends at offset " + block + " inside a header"
          + " block, " + (cut - block) + " of its 512 bytes (truncated? GNU tar ignores them and takes the members"
          + " before it)"), warnings::toString);
      assertEquals(TarTools.listing(partial, base), TarTools.listing(out, base));
      byte[] labelled = Files.readAllBytes(out);
      assertEquals(0, labelled.length % 512);
      assertArrayEquals(new byte[1024], Arrays.copyOfRange(labelled, labelled.length - 1024, labelled.length));
    }
  }

  @Test
  void extendedHeadersWithoutAMemberAreKeptAndIgnoredAsGnuTarIgnoresThem() throws Exception {
    Path in = python("dangling.tar", "import io, sys, tarfile\n"
        + "t = tarfile.open(sys.argv[1] + '.whole', 'w', format=tarfile.PAX_FORMAT)\n"
        + "for name in ['etc/a', 'etc/b']:\n"
        + "    m = tarfile.TarInfo(name); m.size = 2; m.pax_headers = {'comment': name}\n"
        + "    t.addfile(m, io.BytesIO(b'x\\n'))\n"
        + "t.close()\n"
        + "d = open(sys.argv[1] + '.whole', 'rb').read()\n"
        + "open(sys.argv[1], 'wb').write(d[:3072] + bytes(1024))\n");
    List<String> warnings = new ArrayList<>();
    Path out = label(in, "dangling-labelled.tar", 1, warnings);
    assertEquals(List.of("the extended headers at offset 2048 have no member after them (GNU tar ignores them)"),
        warnings);
    assertEquals(TarTools.listing(in, base), TarTools.listing(out, base));
    byte[] labelled = Files.readAllBytes(out);
    assertTrue(indexOf(labelled, "comment=etc/b".getBytes(StandardCharsets.ISO_8859_1)) > 0, "the header is kept");
    // Python's tarfile refuses both archives ("end of file header"); GNU tar extracts etc/a, labelled
    Path extracted = Files.createDirectory(base.resolve("dangling-extracted"));
    AttrTrees.check(List.of("tar", "--xattrs", "--xattrs-include=*", "-xf", out.toString(), "-C",
        extracted.toString()), base);
    assertEquals(reference.lookup(bytes("/etc/a"), 0100000).orElseThrow(),
        AttrTrees.label(extracted.resolve("etc/a"), base));
  }

  private static ArchiveException corrupt(TarLabeller labeller, byte[] archive, String name) throws IOException {
    Path file = Files.write(base.resolve(name), archive);
    return assertThrows(ArchiveException.class, () -> labeller.label(TarSource.of(file), new ByteArrayOutputStream()));
  }

  /**
   * What each member must carry: libselinux's answer, a hard link's smallest name's (a hard-link member
   * without a record keeps none); else what it had.
   */
  private static Map<String, String> expectedLabels(List<String> dump) {
    Map<String, String> expected = new HashMap<>();
    Map<String, List<String>> groups = new HashMap<>();
    Map<String, String> types = new HashMap<>();
    for (String line : dump) {
      String[] fields = line.split(" ");
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      types.put(name, fields[1]);
      if (fields[1].equals("1")) {
        String target = new String(java.util.HexFormat.of().parseHex(fields[8]), StandardCharsets.ISO_8859_1);
        groups.computeIfAbsent(target, k -> new ArrayList<>(List.of(target))).add(name);
      }
    }
    for (String line : dump) {
      String name = new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1);
      String type = types.get(name);
      List<String> group = null;
      for (Map.Entry<String, List<String>> g : groups.entrySet()) {
        if (g.getValue().contains(name)) {
          group = g.getValue();
          type = types.get(g.getKey());
        }
      }
      int mode = switch (type) {
        case "5" -> 0040000;
        case "2" -> 0120000;
        case "3" -> 0020000;
        case "4" -> 0060000;
        case "6" -> 0010000;
        default -> 0100000;
      };
      Optional<String> context = Optional.empty();
      if (group != null) {
        List<String> sorted = new ArrayList<>(group);
        sorted.sort(null); // one char per byte: String order is byte order
        for (String other : sorted) {
          context = reference.lookup(bytes(path(other)), mode);
          if (context.isPresent()) {
            break;
          }
        }
      } else {
        context = reference.lookup(bytes(path(name)), mode);
      }
      // a record that holds the context already is kept as it was (with or without its NUL)
      String had = TarTools.labelOf(line);
      if (line.split(" ")[1].equals("1") && had == null) {
        expected.put(name, null); // a hard link without a record is its target's inode: GNU tar writes none
        continue;
      }
      expected.put(name, context.map(c -> had != null && (had.equals(c) || had.equals(c + "\0")) ? had : c + "\0")
          .orElse(had));
    }
    return expected;
  }

  /** The policy {@code text}, written to {@code name}, loaded and compiled. */
  /** A listener that keeps every warning, in order. */
  private static RelabelListener warningsInto(List<String> warnings) {
    return new RelabelListener() {
      @Override
      public void warned(String message) {
        warnings.add(message);
      }
    };
  }

  private static LabelMatcher matcher(String name, String text) throws Exception {
    Path policy = Files.writeString(base.resolve(name), text);
    return LabelMatcher.compile(PolicyLoader.validating().load(policy));
  }

  /** The archive {@code name} that the Python {@code script} writes to {@code sys.argv[1]}. */
  private static Path python(String name, String script) throws Exception {
    Path archive = base.resolve(name);
    AttrTrees.check(List.of("python3", "-c", script, archive.toString()), base);
    return archive;
  }

  /** Each member's name and its PAX records, sorted, as Python's tarfile reads them: one line a member. */
  private static String paxHeaders(Path archive) throws Exception {
    return AttrTrees.check(List.of("python3", "-c", "import sys, tarfile\n"
        + "for m in tarfile.open(sys.argv[1]):\n"
        + "    print(m.name, sorted(m.pax_headers.items()))", archive.toString()), base);
  }

  /** A member name with the archive's root as /. */
  private static String path(String name) {
    String path = name.startsWith("./") ? name.substring(1) : "/" + name;
    path = path.replaceAll("/+$", "");
    return path.isEmpty() || path.equals("/.") ? "/" : path;
  }

  private static String lineFor(List<String> dump, String name) {
    for (String line : dump) {
      if (new String(TarTools.nameOf(line), StandardCharsets.ISO_8859_1).equals(name)) {
        return line;
      }
    }
    throw new AssertionError(name + " not in " + dump);
  }

  private static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
