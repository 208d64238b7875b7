package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.FileType;
import dev.relabel.policy.Policy;
import dev.relabel.policy.PolicyLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libselinux's rules for which spec wins, one small policy each. Every answer is checked on our
 * matcher (plain lookup and, for absolute paths, a DirectoryMatch walk) and, where libselinux is
 * installed (always in CI), on libselinux too.
 */
class WinnerRulesTest {
  @TempDir
  Path dir;

  private LabelMatcher matcher;
  private LibSelinux reference;
  private int policies;

  @AfterEach
  void close() {
    if (reference != null) {
      reference.close();
    }
  }

  /** Writes {@code file_contexts} (and, in pairs, {@code SUFFIX, CONTENT} siblings) and loads it. */
  private void policy(String fileContexts, String... siblings) throws Exception {
    close();
    Path policyDir = dir.resolve("p" + policies++);
    Files.createDirectories(policyDir);
    Path base = policyDir.resolve("file_contexts");
    write(base, fileContexts);
    for (int i = 0; i < siblings.length; i += 2) {
      write(policyDir.resolve("file_contexts" + siblings[i]), siblings[i + 1]);
    }
    Policy loaded = PolicyLoader.lenient().load(base);
    matcher = LabelMatcher.compile(loaded);
    reference = null;
    if (LibSelinux.available()) {
      reference = LibSelinux.open(base);
    } else if (Oracles.inCi()) {
      fail("CI=true and libselinux.so.1 is missing");
    }
  }

  private static void write(Path file, String content) throws IOException {
    Files.write(file, content.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** {@code expected}: a context, {@code <<none>>}, or null for no match. */
  private void expect(String path, FileType type, String expected) {
    byte[] bytes = Fixtures.unescape(path);
    Label ours = matcher.lookup(bytes, type);
    String what = type.className() + " " + path;
    if (expected == null) {
      assertEquals(Label.Kind.NO_MATCH, ours.kind(), what + ": " + ours);
    } else if (expected.equals("<<none>>")) {
      assertEquals(Label.Kind.NONE, ours.kind(), what + ": " + ours);
    } else {
      assertEquals(Optional.of(expected), ours.context(), what + ": " + ours);
    }
    FixtureDifferentialTest.walk(matcher, bytes, type, null)
        .ifPresent(walked -> assertEquals(ours, walked, what + " (DirectoryMatch walk)"));
    if (reference != null) {
      Optional<String> libselinux = reference.lookup(bytes, type.modeBits());
      Optional<String> context = expected == null || expected.equals("<<none>>") ? Optional.empty() : Optional.of(expected);
      assertEquals(context, libselinux, what + " (libselinux)");
    }
  }

  private void expect(String path, String expected) {
    expect(path, FileType.ANY, expected);
  }

  private static String ctx(String type) {
    return "system_u:object_r:" + type + "_t:s0";
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  @Test
  void laterRegexBeatsEarlierRegex() throws Exception {
    policy(lines("/srv(/.*)? " + ctx("specific"), "/srv/.* " + ctx("general"), "/srv/www(/.*)? " + ctx("www")));
    expect("/srv/www/x", ctx("www"));
    expect("/srv/ftp/x", ctx("general"));
    expect("/srv", ctx("specific"));
  }

  @Test
  void laterExactBeatsEarlierExact() throws Exception {
    policy(lines("/etc/passwd " + ctx("first"), "/etc/passwd " + ctx("second")));
    expect("/etc/passwd", ctx("second"));
  }

  @Test
  void exactBeatsRegexWhateverTheOrder() throws Exception {
    policy(lines("/etc/shadow " + ctx("exact"), "/etc(/.*)? " + ctx("regex")));
    expect("/etc/shadow", ctx("exact"));
    expect("/etc/shadowx", ctx("regex"));
  }

  @Test
  void escapedMetaCharactersKeepASpecExact() throws Exception {
    policy(lines("/lib/ld\\.so " + ctx("exact"), "/lib/.* " + ctx("regex")));
    expect("/lib/ld.so", ctx("exact"));
    expect("/lib/ldxso", ctx("regex"));
  }

  @Test
  void oneUnescapedMetaCharacterMakesARegex() throws Exception {
    policy(lines("/lib/ld.so " + ctx("dot"), "/lib/ld\\.so(/.*)? " + ctx("later")));
    expect("/lib/ld.so", ctx("later"));
    expect("/lib/ldxso", ctx("dot"));
  }

  @Test
  void localBeatsHomedirsBeatsBase() throws Exception {
    policy(lines("/home/[^/]+/.* " + ctx("base")),
        ".homedirs", lines("/home/user/.* " + ctx("homedirs")),
        ".local", lines("/home/user/\\.ssh(/.*)? " + ctx("local")));
    expect("/home/bob/x", ctx("base"));
    expect("/home/user/x", ctx("homedirs"));
    expect("/home/user/.ssh/id", ctx("local"));
  }

  @Test
  void baseExactBeatsLocalRegex() throws Exception {
    policy(lines("/srv/keep " + ctx("base_exact")), ".local", lines("/srv(/.*)? " + ctx("local_regex")));
    expect("/srv/keep", ctx("base_exact"));
    expect("/srv/other", ctx("local_regex"));
  }

  @Test
  void localExactBeatsBaseExact() throws Exception {
    policy(lines("/srv/keep " + ctx("base")), ".local", lines("/srv/keep " + ctx("local")));
    expect("/srv/keep", ctx("local"));
  }

  @Test
  void typeFlagsRestrictWhichRequestsASpecAnswers() throws Exception {
    policy(lines("/dev/x(/.*)? " + ctx("any"), "/dev/x/n -c " + ctx("chr"), "/dev/x/n -b " + ctx("blk")));
    expect("/dev/x/n", FileType.CHAR_DEVICE, ctx("chr"));
    expect("/dev/x/n", FileType.BLOCK_DEVICE, ctx("blk"));
    expect("/dev/x/n", FileType.REGULAR_FILE, ctx("any"));
    expect("/dev/x/n", FileType.ANY, ctx("blk"));
    for (FileType type : FileType.values()) {
      expect("/dev/x/other", type, ctx("any"));
    }
  }

  @Test
  void noneWinsLikeAnyContext() throws Exception {
    policy(lines("/proc(/.*)? <<none>>", "/proc/keep " + ctx("keep")));
    expect("/proc/1", "<<none>>");
    expect("/proc/keep", ctx("keep"));
    expect("/procx", null);
  }

  @Test
  void aLaterNoneHidesAnEarlierContext() throws Exception {
    policy(lines("/tmp(/.*)? " + ctx("tmp"), "/tmp/.* -s <<none>>"));
    expect("/tmp/sock", FileType.SOCKET, "<<none>>");
    expect("/tmp/sock", FileType.ANY, "<<none>>");
    expect("/tmp/sock", FileType.REGULAR_FILE, ctx("tmp"));
  }

  @Test
  void noSpecNoMatch() throws Exception {
    policy(lines("/a " + ctx("a")));
    expect("/b", null);
    expect("/a/b", null);
    expect("/", null);
  }

  @Test
  void stemMustEqualThePathsFirstComponent() throws Exception {
    policy(lines("/usr/a|/etc/b " + ctx("alt"), "/usr/*bin " + ctx("bin")));
    expect("/usr/a", ctx("alt"));
    expect("/usr/x/etc/b", ctx("alt"));
    expect("/etc/b", null);
    expect("/usr/bin", ctx("bin"));
    expect("/usrbin", null);
  }

  @Test
  void aStemWithABackslashNeverMatches() throws Exception {
    policy(lines("/a-b(/.*)? " + ctx("plain"), "/a\\-b/cd " + ctx("escaped_exact"), "/a\\-b/c.* " + ctx("escaped_re")));
    expect("/a-b/cd", ctx("plain"));
    expect("/a-b/cx", ctx("plain"));
    expect("/a\\\\-b/cd", null);
  }

  @Test
  void dollarMatchesBeforeAFinalNewline() throws Exception {
    policy(lines("/n(/.*)? " + ctx("n"), "/n/exact " + ctx("exact"), "/n/re.* " + ctx("re"), "/n/z\\z " + ctx("z")));
    expect("/n/exact\\n", ctx("exact"));
    expect("/n/exact\\n\\n", ctx("n"));
    expect("/n/reg\\n", ctx("re"));
    expect("/n/z", ctx("z"));
    expect("/n/z\\n", ctx("n"));
  }

  @Test
  void dotMatchesEveryByte() throws Exception {
    policy(lines("/d/. " + ctx("one")));
    expect("/d/\\n", ctx("one"));
    expect("/d/\\xff", ctx("one"));
    expect("/d/\\x85", ctx("one"));
  }

  @Test
  void topLevelAlternationIsAnchoredOnlyAtItsEnds() throws Exception {
    policy(lines("(/x)?/one|/two " + ctx("top")));
    expect("/one/more", ctx("top"));
    expect("/more/two", ctx("top"));
    expect("/two/more", null);
  }

  @Test
  void slashesAreCleanedBeforeMatching() throws Exception {
    policy(lines("/a/b " + ctx("ab"), "/ " + ctx("root")));
    expect("//a///b//", ctx("ab"));
    expect("/a/b/", ctx("ab"));
    expect("///", ctx("root"));
    expect("/a/./b", null);
  }

  @Test
  void subsAliasesAtAComponentBoundaryLastLineWinning() throws Exception {
    policy(lines("/usr/lib(/.*)? " + ctx("lib"), "/usr/share(/.*)? " + ctx("share")),
        ".subs", lines("/lib64 /usr/share", "/lib64 /usr/lib"));
    expect("/lib64/x", ctx("lib"));
    expect("/lib64", ctx("lib"));
    expect("/lib64x", null);
  }

  @Test
  void subsDistAppliesAfterSubs() throws Exception {
    policy(lines("/usr/lib(/.*)? " + ctx("lib"), "/mid(/.*)? " + ctx("mid")),
        ".subs", lines("/start /mid"),
        ".subs_dist", lines("/mid /usr/lib"));
    expect("/start/x", ctx("lib"));
    expect("/mid/x", ctx("lib"));
  }

  @Test
  void aliasToTheRoot() throws Exception {
    policy(lines("/ " + ctx("root"), "/etc(/.*)? " + ctx("etc")), ".subs", lines("/chroot /"));
    expect("/chroot", ctx("root"));
    expect("/chroot/etc/passwd", ctx("etc"));
  }

  @Test
  void aliasOfTheRootItselfDoesNotReachItsChildren() throws Exception {
    policy(lines("/ " + ctx("root"), "/slash " + ctx("slash"), "/x " + ctx("x")), ".subs_dist", lines("/ /slash"));
    expect("/", ctx("slash"));
    expect("/x", ctx("x"));
    expect("/slash", ctx("slash"));
    assertEquals(Optional.of(ctx("x")), matcher.directory(Fixtures.unescape("/")).lookup(Fixtures.unescape("x"),
        FileType.ANY).context());
  }
}
