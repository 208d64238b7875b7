package dev.relabel.walk;

import dev.relabel.report.RelabelReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One hostile tree, built twice, labelled by Debian's {@code setfiles -r ROOT} (policy: Debian's
 * file_contexts) and by the engine at {@code -T 2}; every entry's {@code security.selinux} (read
 * with getfattr) must then be identical. The tree holds: names that are not UTF-8, hold a newline,
 * a tab, a backslash or a leading blank, look like options ({@code -F -- -r}) or globs, and a
 * 255-byte name; a file modified in 2286 (its time in nanoseconds is past a long); a FIFO
 * (opening it would hang the walk), a socket, a character and a block device;
 * a directory of 20,000 files; a file hard-linked under two specs; symlinks out of the tree (to
 * a directory of sentinel-labelled files beside it), to the tree's parent, to themselves, to each
 * other and to their own directory; and a chain of 255-byte directories that goes past PATH_MAX.
 *
 * <p>Where setfiles cannot label at all — past PATH_MAX it silently stops descending — the
 * engine's label is checked against the policy's answer for that path instead, read back with
 * getfattr one directory at a time. The hard-linked file gets the label of whichever name setfiles
 * meets first, and of its smallest name with the engine, so there both names must agree and carry
 * one of the two specs' labels (the engine's: the smallest name's), and both tools must warn. Nothing outside the tree may change.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HostileTreeTest {
  private static final String SENTINEL = "sentinel_u:sentinel_r:sentinel_t:s0";
  private static final String SCRAMBLED = "staff_u:staff_r:tmp_t:s0-s0:c1";
  private static final int BIG = 20_000;
  private static final int DEPTH = 20;
  private static final String LONG_NAME = "d".repeat(255);
  /** Entries (relative, one char per byte) given a wrong label before the runs. */
  private static final List<String> SCRAMBLE = List.of("etc", "etc/-F", "etc/caf\u00e9", "etc/new\nline", "etc/loop",
      "dev/null", "dev/initctl", "dev/log", "dev/loop0", "var/big/f7", "usr/bin/tool", "etc/future");

  @TempDir static Path base;
  private static Path outside;
  private static Path reference;
  private static Path ours;
  private static AttrTrees.Run setfiles;
  private static RelabelReport report;
  private static RecordingListener listener;

  @BeforeAll
  static void buildAndLabel() throws Exception {
    AttrTrees.requireTools(true);
    outside = Files.createDirectory(base.resolve("outside"));
    Files.createFile(outside.resolve("secret"));
    for (Path p : List.of(outside, outside.resolve("secret"))) {
      AttrTrees.setLabel(p, SENTINEL, base);
    }
    reference = build(base.resolve("setfiles"));
    ours = build(base.resolve("ours"));

    setfiles = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-r", reference.toString(),
        Oracles.DEBIAN_FILE_CONTEXTS.toString(), reference.toString()), base);
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    listener = new RecordingListener();
    report = Relabeler.onDisk(matcher, RelabelOptions.defaults().withThreads(2).withAlternateRoot(ours), listener)
        .run(List.of(ours));
  }

  /** Java's file API cannot delete past PATH_MAX, so JUnit's clean-up could not either. */
  @AfterAll
  static void removeTrees() throws Exception {
    DiskLabels.bash(base, "rm -rf " + base.resolve("setfiles") + " " + base.resolve("ours"));
  }

  private static Path build(Path root) throws Exception {
    Files.createDirectory(root);
    DiskLabels.bash(base, "set -e; cd " + root + "; mkdir -p etc dev run usr/bin home/deep var/big"
        + "; cd etc; touch $'caf\\xe9' $'\\xff\\xfe' $'new\\nline' $'tab\\there' 'back\\slash' ' lead' '*' -- -F -- -r "
        + "n".repeat(255)
        + "; touch -d '2286-11-20 17:46:39' future" // past 2262: its mtime in nanoseconds overflows a long
        + "; ln -s " + outside + " out; ln -s ../.. up; ln -s loop loop; ln -s b a; ln -s a b; ln -s . cycle"
        + "; cd ../dev; mknod null c 1 3; mknod loop0 b 7 0; mkfifo initctl"
        + "; cd ../usr/bin; touch tool; ln tool ../../etc/tool-link"
        + "; cd ../../var/big; seq -f f%g 0 " + (BIG - 1) + " | xargs touch"
        + "; cd ../../home/deep; for i in $(seq " + DEPTH + "); do mkdir " + LONG_NAME + "; cd " + LONG_NAME
        + "; done; touch leaf");
    try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      socket.bind(UnixDomainSocketAddress.of(root.resolve("dev/log")));
    }
    // Names are bytes: through setfattr --restore, which reads them escaped, not through a Path.
    Map<String, String> scramble = new TreeMap<>();
    SCRAMBLE.forEach(entry -> scramble.put(entry, SCRAMBLED));
    Path dump = base.resolve("scramble.dump");
    Files.writeString(dump, AttrTrees.restoreDump(scramble).replace("# file: ", "# file: " + root + "/"),
        StandardCharsets.ISO_8859_1);
    AttrTrees.check(List.of("setfattr", "-h", "--restore=" + dump), base);
    return root;
  }

  /** Labels of every entry but the chain past PATH_MAX (getfattr -R cannot reach it), by relative path. */
  private static Map<String, String> labels(Path root) throws Exception {
    Map<String, String> labels = new TreeMap<>(AttrTrees.labels(root, base));
    labels.keySet().removeIf(entry -> entry.startsWith("home/deep/"));
    return labels;
  }

  /**
   * The chain's labels, level by level and then leaf's, read with getfattr from inside each
   * directory so that no path is long; "none" where an entry has no label.
   */
  private static List<String> chainLabels(Path root) throws Exception {
    String read = "{ getfattr -h -e hex -n security.selinux \"$n\" 2>/dev/null | grep '^security' || echo none; }";
    String out = AttrTrees.check(List.of("bash", "-c", "cd \"$1\"/home/deep || exit 1; for i in $(seq " + DEPTH
        + "); do n=" + LONG_NAME + "; " + read + "; cd $n || exit 1; done; n=leaf; " + read, "bash", root.toString()),
        base);
    return List.of(out.replace("security.selinux=", "").strip().split("\n"));
  }


  @Test
  void everyEntrySetfilesLabelsGetsItsLabel() throws Exception {
    assertEquals(0, setfiles.status(), setfiles::toString);
    assertEquals(List.of(), report.failures());
    Map<String, String> expected = labels(reference);
    Map<String, String> actual = labels(ours);
    assertEquals(expected.keySet(), actual.keySet());
    assertTrue(expected.size() > BIG + 20, "the tree: " + expected.size());
    // The hard link: see linkedNamesAgree.
    for (Map<String, String> labels : List.of(expected, actual)) {
      labels.remove("usr/bin/tool");
      labels.remove("etc/tool-link");
    }
    List<String> differences = new ArrayList<>();
    expected.forEach((entry, label) -> {
      if (!label.equals(actual.get(entry))) {
        differences.add(entry + ": setfiles " + label + ", ours " + actual.get(entry));
      }
    });
    assertEquals(List.of(), differences);
    assertTrue(!expected.containsValue("<none>"), "setfiles labels every entry of this part of the tree");
    for (String scrambled : SCRAMBLE) {
      if (!scrambled.equals("usr/bin/tool")) {
        assertTrue(!expected.get(scrambled).equals(AttrTrees.hex(SCRAMBLED)), scrambled + " should have been relabelled");
      }
    }
  }

  @Test
  void theHardLinkedFileGetsOneOfItsSpecsLabelsAndBothToolsWarn() throws Exception {
    // It was scrambled: a type-only change of that label to either spec's type.
    Set<String> either = Set.of(AttrTrees.hex("staff_u:staff_r:bin_t:s0-s0:c1"),
        AttrTrees.hex("staff_u:staff_r:etc_t:s0-s0:c1"));
    for (Path root : List.of(reference, ours)) {
      Map<String, String> labels = AttrTrees.labels(root, base);
      assertEquals(labels.get("usr/bin/tool"), labels.get("etc/tool-link"), root.toString());
      assertTrue(either.contains(labels.get("usr/bin/tool")), root + ": " + labels.get("usr/bin/tool"));
    }
    // The engine's choice does not depend on timing: the smallest name, etc/tool-link, decides.
    assertEquals(AttrTrees.hex("staff_u:staff_r:etc_t:s0-s0:c1"), AttrTrees.labels(ours, base).get("usr/bin/tool"));
    assertTrue(setfiles.err().contains("conflicting specifications for "), setfiles::toString);
    assertEquals(1, listener.warnings.stream().filter(w -> w.startsWith("conflicting specifications for ")).count(),
        listener.warnings::toString);
  }

  @Test
  void pastPathMaxTheEngineLabelsWhatSetfilesCannotReach() throws Exception {
    List<String> reached = chainLabels(reference);
    List<String> labelled = chainLabels(ours);
    assertEquals(DEPTH + 1, labelled.size(), labelled::toString);
    LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(Oracles.DEBIAN_FILE_CONTEXTS));
    StringBuilder key = new StringBuilder("/home/deep");
    int beyondSetfiles = 0;
    for (int i = 0; i <= DEPTH; i++) {
      boolean leaf = i == DEPTH;
      key.append('/').append(leaf ? "leaf" : LONG_NAME);
      if (reached.get(i).equals("none")) {
        beyondSetfiles++;
        String policy = matcher.lookup(key.toString(), leaf ? FileType.REGULAR_FILE : FileType.DIRECTORY)
            .context().orElseThrow();
        assertEquals(AttrTrees.hex(policy), labelled.get(i), "level " + i + " (" + key.length() + " bytes), beyond setfiles");
      } else {
        assertEquals(reached.get(i), labelled.get(i), "level " + i + " (" + key.length() + " bytes)");
      }
    }
    assertTrue(key.length() + ours.toString().length() > 4096, "the chain must go past PATH_MAX");
    System.out.println("HostileTreeTest: setfiles left " + beyondSetfiles + " of the chain's " + (DEPTH + 1)
        + " entries unlabelled (past PATH_MAX); the engine labelled them all");
  }

  @Test
  void nothingOutsideTheTreeChanged() throws Exception {
    assertEquals(SENTINEL, AttrTrees.label(outside, base));
    assertEquals(SENTINEL, AttrTrees.label(outside.resolve("secret"), base));
    // The symlinks themselves were labelled, not what they point to.
    Map<String, String> labels = AttrTrees.labels(ours, base);
    for (String link : List.of("etc/out", "etc/up", "etc/a", "etc/b", "etc/cycle")) {
      assertEquals(AttrTrees.hex("system_u:object_r:etc_t:s0"), labels.get(link), link);
    }
    assertEquals(AttrTrees.hex("staff_u:staff_r:etc_t:s0-s0:c1"), labels.get("etc/loop"), "scrambled: type only");
    assertEquals(AttrTrees.labels(reference, base).size(), labels.size(), "no entry appeared or vanished");
  }
}
