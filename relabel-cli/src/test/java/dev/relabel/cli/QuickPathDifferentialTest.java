package dev.relabel.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.relabel.cli.common.Io;
import dev.relabel.fixtures.AttrTrees;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quick path against picocli's, in-process, for a generated set of argument vectors: valid
 * ones (clustered letters, arguments attached and apart, every letter taken), every case it must
 * decline, and nasty paths (spaces, a name that is not UTF-8, missing files, a symlink, globs).
 * Each vector the quick path must take runs on both paths, each on its own fresh copy of one
 * labelled tree at the same place, and the two must leave the same standard output and error
 * (bytes; a {@code --json} report's durations aside), exit status, and labels and digests (read
 * back with getfattr). Each vector it must decline leaves it with nothing written.
 *
 * <p>The tree lies under /srv, which Debian's policy labels (restorecon uses the system's policy);
 * setfiles and lookup read a spec file written here. Without a system policy restorecon fails on
 * both paths alike, and the comparison still holds.
 */
class QuickPathDifferentialTest {
  private static final String ETC = "system_u:object_r:etc_t:s0";
  private static final String VAR = "system_u:object_r:var_t:s0";
  private static final String OLD = "system_u:object_r:user_home_t:s0";
  /** A name that is not UTF-8 (one char per byte), and one that is. */
  private static final String RAW = "\u00ff\u00fe";
  private static final String UTF8 = "\u00e9t\u00e9";

  @TempDir
  static Path scratch;
  private static Path template;
  private static String dump;
  private static Path tree;
  private static Path spec;
  private static Path badSpec;
  private static Path list;
  private static Path nulList;

  @BeforeAll
  static void files() throws IOException, InterruptedException {
    AttrTrees.requireTools(false);
    Path parent = Files.createTempDirectory(Path.of("/srv"), "relabel-quick-");
    tree = parent.resolve("tree");
    template = Files.createDirectories(scratch.resolve("template"));
    Files.createDirectories(template.resolve("sub"));
    for (String file : List.of("a", "b", "sub/c", "with space", "none")) {
      Files.writeString(template.resolve(file), "");
    }
    AttrTrees.touchRaw(template, new String(UTF8.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1),
        scratch);
    Files.createSymbolicLink(template.resolve("link"), Path.of("a"));
    AttrTrees.touchRaw(template, RAW, scratch);
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(".", OLD);
    labels.put("a", OLD);
    labels.put("b", "unconfined_u:object_r:etc_t:s0"); // the type setfiles' spec gives, another user: -F's
    labels.put("sub", ETC);
    labels.put("sub/c", "unconfined_u:object_r:var_t:s0"); // the type of both policies, another user
    labels.put("none", OLD);
    dump = AttrTrees.restoreDump(labels);
    spec = Files.writeString(scratch.resolve("file_contexts"), tree + "(/.*)?\t" + ETC + "\n"
        + tree + "/sub(/.*)?\t" + VAR + "\n" + tree + "/none\t<<none>>\n" + tree + "/link\t-l\t" + OLD + "\n");
    badSpec = Files.writeString(scratch.resolve("bad_file_contexts"), tree + "(/.*)?\tnot_a_context\n");
    list = Files.writeString(scratch.resolve("list"), tree + "/a\n" + tree + "/with space\n" + tree + "/sub\n"
        + tree + "/missing\n");
    nulList = Files.writeString(scratch.resolve("nul-list"), tree + "/a\0" + tree + "/with space\0" + tree + "/b\0");
  }

  @AfterAll
  static void removeFiles() throws IOException, InterruptedException {
    if (tree != null) {
      AttrTrees.check(List.of("rm", "-rf", "--", tree.getParent().toString()), scratch);
    }
  }

  /**
   * An argument vector, what the quick path must do with it, and the run's environment, charset and
   * standard input (placeholders as in the arguments).
   */
  record Case(boolean quick, List<String> args, Map<String, String> environment, Charset charset, String input) {
    @Override
    public String toString() {
      return (quick ? "quick " : "declined ") + args + (environment.isEmpty() ? "" : " " + environment)
          + (charset == StandardCharsets.UTF_8 ? "" : " " + charset)
          + (input.isEmpty() ? "" : " < " + input.replace("\n", "\\n").replace("\0", "\\0"));
    }
  }

  private static Case quick(String... args) {
    return new Case(true, List.of(args), Map.of(), StandardCharsets.UTF_8, "");
  }

  private static Case declined(String... args) {
    return new Case(false, List.of(args), Map.of(), StandardCharsets.UTF_8, "");
  }

  private static Case withThreads(String threads, Case c) {
    return new Case(c.quick(), c.args(), Map.of("RELABEL_THREADS", threads), c.charset(), c.input());
  }

  private static Case latin1(Case c) {
    return new Case(c.quick(), c.args(), c.environment(), StandardCharsets.ISO_8859_1, c.input());
  }

  private static Case withInput(String input, Case c) {
    return new Case(c.quick(), c.args(), c.environment(), c.charset(), input);
  }

  /**
   * {T}: the tree; {S}: a spec file for it; {B}: a malformed one; {X}: a file that does not exist;
   * {L}: a list of paths in the tree, one per line (one missing, one with a space); {Z}: one
   * NUL-separated.
   */
  static Stream<Case> cases() {
    return Stream.of(
        // the version, alone; with anything else picocli's
        quick("--version"),
        quick("-V"),
        declined("--version", "-V"),
        declined("-V", "lookup"),
        declined("--version=x"),
        // restorecon, with the system's policy
        quick("restorecon", "-n", "{T}/a"),
        quick("restorecon", "-nv", "{T}/a"),
        quick("restorecon", "-v", "{T}/b"),
        quick("restorecon", "-R", "{T}"),
        quick("restorecon", "-Rv", "{T}"),
        quick("restorecon", "-r", "-v", "{T}"),
        quick("restorecon", "-RvF", "{T}"),
        quick("restorecon", "-F", "-v", "-R", "{T}"),
        quick("restorecon", "-vv", "{T}/a"),
        quick("restorecon", "-i", "{X}"),
        quick("restorecon", "{X}"),
        quick("restorecon", "-vi", "{X}", "{T}/a"),
        quick("restorecon", "-v", "-e", "{T}/sub", "-R", "{T}"),
        quick("restorecon", "-vRe{T}/sub", "{T}"),
        quick("restorecon", "-vRe", "{T}/sub", "{T}"),
        quick("restorecon", "-e", "{X}", "-Rv", "{T}"),
        quick("restorecon", "-e", ".", "-Rv", "{T}"),
        quick("restorecon", "-e", "{T}/a", "-Rv", "{T}"),
        quick("restorecon", "-e", "", "-Rv", "{T}"),
        quick("restorecon", "-T", "1", "-Rv", "{T}"),
        quick("restorecon", "-T1", "-Rv", "{T}"),
        quick("restorecon", "-vT0", "{T}/a"),
        quick("restorecon", "-T", "2", "-v", "{T}/a"),
        quick("restorecon", "-x", "-Rv", "{T}"),
        quick("restorecon", "-mv", "{T}/a"),
        quick("restorecon", "-DRv", "{T}"),
        quick("restorecon", "-IRv", "{T}"),
        quick("restorecon", "-q", "{T}/a"),
        quick("restorecon", "-nv", "{T}/with space", "{T}/link", "{T}/none", "{T}/" + UTF8),
        quick("restorecon", "-v", "{T}/*"),
        quick("restorecon", "-v", "{T}/s?b", "{T}/{a,b}"),
        quick("restorecon", "-v", ""),
        latin1(quick("restorecon", "-v", "{T}/" + RAW)),
        withThreads("1", quick("restorecon", "-v", "{T}/a")),
        withThreads("", quick("restorecon", "-Rv", "{T}")),
        withThreads("x", quick("restorecon", "-T", "1", "-v", "{T}/a")),
        declined("restorecon"),
        declined("restorecon", "-v"),
        quick("restorecon", "--json", "{T}/a"),
        quick("restorecon", "--json", "-Rv", "{T}"),
        quick("restorecon", "-n", "--json", "-R", "{T}", "{X}"),
        quick("restorecon", "--json", "-v", "{T}/" + UTF8),
        declined("restorecon", "--json", "--json", "{T}/a"),
        declined("restorecon", "--json=true", "{T}/a"),
        declined("restorecon", "--jso", "{T}/a"),
        declined("restorecon", "{T}/a", "--json"),
        declined("restorecon", "--help"),
        declined("restorecon", "-h"),
        declined("restorecon", "-V"),
        declined("restorecon", "-p", "{T}/a"),
        declined("restorecon", "--no-progress", "{T}/a"),
        // the paths from a list: -f FILE, -f - and -s (standard input), -0 (NUL-separated)
        quick("restorecon", "-v", "-f", "{L}"),
        quick("restorecon", "-vf{L}"),
        quick("restorecon", "-Rv", "-f", "{L}"),
        quick("restorecon", "-v0", "-f", "{Z}"),
        quick("restorecon", "-iv", "-f", "{L}"),
        quick("restorecon", "-f", "{X}"),
        quick("restorecon", "-f", ""),
        quick("restorecon", "-f", "{T}"),
        withInput("{T}/b\n", quick("restorecon", "-v", "-s", "-f", "{L}")),
        quick("restorecon", "-v", "-f", "{S}"),
        quick("restorecon", "-s"),
        quick("restorecon", "-0v", "{T}/a"),
        withInput("{T}/a\n{T}/b\n", quick("restorecon", "-v", "-f", "-")),
        withInput("{T}/a\n{T}/b\n", quick("restorecon", "-vf-")),
        withInput("{T}/a\n{T}/sub\n", quick("restorecon", "-Rvs")),
        withInput("{T}/a\0{T}/with space\0", quick("restorecon", "-v0s")),
        withInput("{T}/a\0{T}/b\0", quick("restorecon", "-0", "-v", "-f", "-")),
        declined("restorecon", "-f", "{L}", "{T}/a"),
        declined("restorecon", "-s", "{T}/a"),
        declined("restorecon", "-f", "{L}", "-f", "{L}"),
        declined("restorecon", "-ss"),
        declined("restorecon", "-00", "-s"),
        declined("restorecon", "-f"),
        declined("restorecon", "-f", "-v"),
        declined("restorecon", "-f", "--", "{T}/a"),
        declined("restorecon", "-l", "{T}/a"),
        declined("restorecon", "-o", "{X}", "{T}/a"),
        declined("restorecon", "--", "{T}/a"),
        declined("restorecon", "{T}/a", "-v"),
        declined("restorecon", "-v", "-"),
        declined("restorecon", "-Z", "{T}/a"),
        declined("restorecon", "-nZ", "{T}/a"),
        declined("restorecon", "-U", "{T}/a"),
        declined("restorecon", "-nn", "{T}/a"),
        declined("restorecon", "-R", "-r", "{T}"),
        declined("restorecon", "-e"),
        declined("restorecon", "-e", "-v", "{T}/a"),
        declined("restorecon", "-e=/srv", "{T}/a"),
        declined("restorecon", "-T"),
        declined("restorecon", "-T", "x", "{T}/a"),
        declined("restorecon", "-T", "99999", "{T}/a"),
        declined("restorecon", "-T", "", "{T}/a"),
        declined("restorecon", "-T=2", "{T}/a"),
        declined("restorecon", "-T", "-1", "{T}/a"),
        declined("restorecon", "-T", "1", "-T", "1", "{T}/a"),
        declined("restorecon", "-v\u00e9", "{T}/a"),
        withThreads("x", declined("restorecon", "-v", "{T}/a")),
        withThreads("99999", declined("restorecon", "-v", "{T}/a")),
        // setfiles, with a spec file
        quick("setfiles", "-n", "-v", "{S}", "{T}"),
        quick("setfiles", "-v", "{S}", "{T}"),
        quick("setfiles", "-v", "{S}", "{T}/a"),
        quick("setfiles", "-vF", "{S}", "{T}"),
        quick("setfiles", "-vU", "{S}", "{T}"),
        quick("setfiles", "-r", "{T}", "-v", "{S}", "{T}"),
        quick("setfiles", "-r{T}", "-v", "{S}", "{T}/sub"),
        quick("setfiles", "-R", "{T}", "-v", "{S}", "{T}"),
        quick("setfiles", "-r", "{T}", "-r", "{T}", "-v", "{S}", "{T}"),
        quick("setfiles", "-r", "/", "{S}", "{T}"),
        quick("setfiles", "-r", "", "{S}", "{T}"),
        quick("setfiles", "-r", "{X}", "{S}", "{T}"),
        quick("setfiles", "-r", "{T}/sub", "-v", "{S}", "{T}/a"),
        quick("setfiles", "-Av", "{S}", "{T}"),
        quick("setfiles", "-jv", "{S}", "{T}"),
        quick("setfiles", "-C", "{S}", "{X}"),
        quick("setfiles", "-d", "{S}", "{T}/a"),
        quick("setfiles", "-Wv", "{S}", "{T}/a"),
        quick("setfiles", "-q", "{S}", "{T}/a"),
        quick("setfiles", "-i", "{S}", "{X}"),
        quick("setfiles", "-mv", "{S}", "{T}"),
        quick("setfiles", "-e", "{T}/sub", "-v", "{S}", "{T}"),
        quick("setfiles", "-e", ".", "{S}", "{T}"),
        quick("setfiles", "-e{X}", "-v", "{S}", "{T}"),
        quick("setfiles", "-T1", "-v", "{S}", "{T}"),
        quick("setfiles", "-T", "2", "-v", "{S}", "{T}/a"),
        quick("setfiles", "-Dv", "{S}", "{T}"),
        quick("setfiles", "-Iv", "{S}", "{T}"),
        quick("setfiles", "-v", "{X}", "{T}"),
        quick("setfiles", "-v", "{T}", "{T}"),
        quick("setfiles", "-v", "{B}", "{T}"),
        quick("setfiles", "-v", "{S}", "{T}/with space", "{T}/link", "{T}/none", "{T}/" + UTF8),
        quick("setfiles", "-v", "{S}", "{T}/*"),
        latin1(quick("setfiles", "-v", "{S}", "{T}/" + RAW)),
        withThreads("2", quick("setfiles", "-v", "{S}", "{T}/a")),
        declined("setfiles"),
        declined("setfiles", "{S}"),
        declined("setfiles", "-v", "{S}"),
        declined("setfiles", "-x", "{S}", "{T}"),
        declined("setfiles", "-c", "{S}", "{S}", "{T}"),
        declined("setfiles", "-E", "{S}", "{T}"),
        declined("setfiles", "-l", "{S}", "{T}"),
        declined("setfiles", "-p", "{S}", "{T}"),
        declined("setfiles", "-vv", "{S}", "{T}"),
        declined("setfiles", "-FF", "{S}", "{T}"),
        declined("setfiles", "-o", "{X}", "{S}", "{T}"),
        quick("setfiles", "-v", "-f", "{L}", "{S}"),
        quick("setfiles", "-v0f{Z}", "{S}"),
        quick("setfiles", "-s", "{S}"),
        withInput("{T}/a\n{T}/sub\n", quick("setfiles", "-vs", "{S}")),
        withInput("{T}/a\0{T}/b\0", quick("setfiles", "-v0", "-f", "-", "{S}")),
        quick("setfiles", "-v", "-f", "{S}", "{S}"),
        declined("setfiles", "-f", "{L}", "{S}", "{T}"),
        declined("setfiles", "-s", "{S}", "{T}"),
        declined("setfiles", "-f", "{L}"),
        declined("setfiles", "-s"),
        quick("setfiles", "--json", "{S}", "{T}"),
        quick("setfiles", "--json", "-vF", "-r", "{T}", "{S}", "{T}"),
        quick("setfiles", "-v", "--json", "{B}", "{T}"),
        quick("setfiles", "--json", "{X}", "{T}"),
        quick("setfiles", "-n", "--json", "{S}", "{T}/a", "{X}"),
        declined("setfiles", "--json", "--json", "{S}", "{T}"),
        declined("setfiles", "--json", "-p", "{S}", "{T}"),
        declined("setfiles", "--progress", "{S}", "{T}"),
        declined("setfiles", "-h"),
        declined("setfiles", "-v", "{S}", "{T}", "-n"),
        declined("setfiles", "-T", "x", "{S}", "{T}"),
        withThreads("x", declined("setfiles", "-v", "{S}", "{T}")),
        // lookup, with a spec file or the system's policy
        quick("lookup", "-f", "{S}", "{T}/a"),
        quick("lookup", "-f{S}", "{T}/a", "{T}/none", "/elsewhere"),
        quick("lookup", "-m", "dir", "-f", "{S}", "{T}/sub"),
        quick("lookup", "-mdir", "-f", "{S}", "{T}"),
        quick("lookup", "-m", "any", "-f", "{S}", "{T}/a"),
        quick("lookup", "-m", "lnk_file", "-f", "{S}", "{T}/link"),
        quick("lookup", "-r", "{T}", "-f", "{S}", "{T}/a"),
        quick("lookup", "-r", "{T}", "-f", "{S}", "/elsewhere"),
        quick("lookup", "-r", "{T}/", "-f", "{S}", "{T}/sub"),
        quick("lookup", "-f", "{S}", ""),
        quick("lookup", "-f", "{X}", "/etc/passwd"),
        quick("lookup", "-f", "", "/etc/passwd"),
        quick("lookup", "-f", "{B}", "/etc/passwd"),
        quick("lookup", "/etc/passwd", "{T}/with space"),
        quick("lookup", "-r", "{T}", "/etc/passwd"),
        latin1(quick("lookup", "-f", "{S}", "{T}/" + RAW)),
        declined("lookup"),
        declined("lookup", "-f", "{S}"),
        declined("lookup", "--stdin"),
        quick("lookup", "--json", "-f", "{S}", "/etc/passwd", "{T}/a", "{T}/none"),
        quick("lookup", "-m", "dir", "--json", "-f", "{S}", "{T}/sub"),
        quick("lookup", "--json", "-f", "{B}", "/etc/passwd"),
        quick("lookup", "--json", "-f", "{X}", "/etc/passwd"),
        declined("lookup", "--json", "--json", "-f", "{S}", "/etc/passwd"),
        declined("lookup", "--json", "--stdin"),
        declined("lookup", "--file-contexts", "{S}", "/etc/passwd"),
        declined("lookup", "-h"),
        declined("lookup", "-m", "bogus", "/etc/passwd"),
        declined("lookup", "-m", "dir", "-m", "dir", "/etc/passwd"),
        declined("lookup", "-f", "{S}", "-f", "{S}", "/etc/passwd"),
        declined("lookup", "-r", "", "/etc/passwd"),
        declined("lookup", "-x", "/etc/passwd"),
        declined("lookup", "-f"),
        declined("lookup", "-f", "{S}", "/etc/passwd", "-m", "dir"),
        // the other verbs are picocli's
        declined("chcon", "-v", ETC, "{T}/a"),
        declined("--help"),
        declined());
  }

  /** What a run left. */
  record Outcome(Integer status, byte[] out, byte[] err, Map<String, String> labels, Map<String, String> digests) {}

  @ParameterizedTest
  @MethodSource("cases")
  void theQuickPathDeclinesOrDoesWhatPicocliDoes(Case c) throws Exception {
    String[] args = c.args().stream().map(QuickPathDifferentialTest::placed).toArray(String[]::new);
    Outcome quick = run(c, args, true);
    if (!c.quick()) {
      assertNull(quick.status(), "the quick path took it");
      assertEquals(0, quick.out().length + quick.err().length, "the quick path wrote before declining");
      return;
    }
    assertNotNull(quick.status(), "the quick path declined it");
    Outcome picocli = run(c, args, false);
    assertEquals(picocli.status(), quick.status(), "exit status");
    // A --json report's durations differ from run to run; everything else in it must not.
    byte[] picocliOut = withoutDurations(picocli.out());
    byte[] quickOut = withoutDurations(quick.out());
    assertArrayEquals(picocliOut, quickOut, () -> "standard output: picocli's\n" + text(picocliOut)
        + "quick path's\n" + text(quickOut));
    assertArrayEquals(picocli.err(), quick.err(), () -> "standard error: picocli's\n" + text(picocli.err())
        + "quick path's\n" + text(quick.err()));
    assertEquals(picocli.labels(), quick.labels(), "labels");
    assertEquals(picocli.digests(), quick.digests(), "digests");
  }

  /** {@code text} with its placeholders replaced (see {@link #cases()}). */
  private static String placed(String text) {
    return text.replace("{T}", tree.toString()).replace("{S}", spec.toString()).replace("{B}", badSpec.toString())
        .replace("{X}", scratch.resolve("missing").toString()).replace("{L}", list.toString())
        .replace("{Z}", nulList.toString());
  }

  /** Runs {@code args} on one path, on a fresh copy of the tree. */
  private static Outcome run(Case c, String[] args, boolean quickPath) throws IOException, InterruptedException {
    AttrTrees.check(List.of("rm", "-rf", "--", tree.toString()), scratch);
    AttrTrees.labelledCopy(template, tree, dump, scratch);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    byte[] input = placed(c.input()).getBytes(StandardCharsets.UTF_8);
    Io io = new Io(new ByteArrayInputStream(input), out, err, c.charset(), c.environment());
    Integer status = quickPath ? QuickPath.run(args, io) : Integer.valueOf(RelabelCommand.execute(io, args));
    return new Outcome(status, out.toByteArray(), err.toByteArray(), AttrTrees.labels(tree, scratch),
        AttrTrees.attributes(tree, "security.sehash", scratch));
  }

  /** {@code bytes} with a report's {@code durationMs} and {@code walkSeconds} values replaced by {@code 0}. */
  private static byte[] withoutDurations(byte[] bytes) {
    return text(bytes).replaceAll("\"(durationMs|walkSeconds)\":[0-9.Ee+-]+", "\"$1\":0")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
