package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.oracle.Oracles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PolicyCache}: a compiled policy loads as the text it came from, and one that is stale,
 * truncated, corrupt, foreign or untrusted is ignored with a warning, the text read instead.
 */
class PolicyCacheTest {
  private static final String A = "system_u:object_r:a_t:s0";
  private static final String B = "system_u:object_r:b_t:s0";

  @TempDir
  Path dir;

  private Path fileContexts;
  private final List<String> warnings = new ArrayList<>();

  @BeforeEach
  void writePolicy() throws IOException {
    fileContexts = write("file_contexts", "/\t\t" + A + "\n/a(/.*)?\t\t" + A + "\n/b/[^/]+\\.d\t-d\t" + B + "\n"
        + "/c/(x|y)+z?\t\t<<none>>\n");
    write("file_contexts.local", "/local\t\t" + B + "\n");
    write("file_contexts.subs", "/alias /a\n");
  }

  private Path write(String name, String content) throws IOException {
    return Files.write(dir.resolve(name), content.getBytes(StandardCharsets.ISO_8859_1));
  }

  private Policy load() throws PolicyException {
    return PolicyLoader.validating().warningsTo(warnings::add).load(fileContexts);
  }

  private Policy text() throws PolicyException {
    return PolicyLoader.validating().ignoringCompiled().load(fileContexts);
  }

  private Path cache() {
    return PolicyCache.fileFor(fileContexts);
  }

  @Test
  void aCompiledPolicyLoadsAsItsText() throws Exception {
    PolicyCache.Compiled compiled = PolicyCache.compile(fileContexts);
    assertEquals(dir.resolve("file_contexts.relabel"), compiled.file());
    assertEquals(5, compiled.specs());
    assertEquals(List.of(), PolicyCache.problem(fileContexts).stream().toList());
    Policy policy = load();
    assertEquals(List.of(), warnings);
    assertEquals(text(), policy);
    assertEquals(text().compiledExpressions().keySet(), policy.compiledExpressions().keySet());
    assertEquals(List.of(new PathAlias("/alias", "/a")), policy.localAliases());
    // The translations come back lazily compiled, and answer as the ones compiled from the text.
    Policy fromText = text();
    for (String regex : fromText.compiledExpressions().keySet()) {
      for (String key : List.of("/b/x.d", "/b/x/y.d", "/c/xyxz", "/c/z", "/c/xx")) {
        assertEquals(fromText.compiledExpressions().get(regex).find(key),
            policy.compiledExpressions().get(regex).find(key), regex + " on " + key);
      }
    }
    // Spec by spec, as the matcher asks: the same expression, or none, where the text has one.
    for (int i = 0; i < fromText.specs().size(); i++) {
      PcrePatternView expected = PcrePatternView.of(fromText.compiledExpression(i));
      assertEquals(expected, PcrePatternView.of(policy.compiledExpression(i)), fromText.specs().get(i).toString());
    }
    assertEquals(java.util.Optional.empty(), policy.matcherSection(), "no section was stored");
  }

  /** What a compiled expression is, for comparing: its source and translation (null for none). */
  private record PcrePatternView(String source, String translation) {
    static PcrePatternView of(dev.relabel.regex.PcrePattern pattern) {
      return pattern == null ? null : new PcrePatternView(pattern.source(), pattern.translation());
    }
  }

  @Test
  void theMatchersSectionComesBackAsStored() throws Exception {
    byte[] section = {1, 2, 3, 4, 5, (byte) 0xff};
    PolicyCache.compile(fileContexts, policy -> {
      assertEquals(text(policy.baseFile()), policy, "the section is made of the policy being compiled");
      return section;
    });
    Policy policy = load();
    assertEquals(List.of(), warnings);
    ByteBuffer stored = policy.matcherSection().orElseThrow();
    byte[] read = new byte[stored.remaining()];
    stored.get(read);
    assertArrayEquals(section, read);
    // Each call hands out a buffer of its own: reading one does not move another.
    assertEquals(section.length, policy.matcherSection().orElseThrow().remaining());
    assertEquals(text(), policy);
  }

  private static Policy text(Path fileContexts) {
    try {
      return PolicyLoader.validating().ignoringCompiled().load(fileContexts);
    } catch (PolicyException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void everyFixtureThatValidatesCompilesToItsOwnPolicy() throws Exception {
    int compiled = 0;
    for (String name : Fixtures.names()) {
      Path copy = Files.createDirectories(dir.resolve("fixture-" + name));
      Path base = Fixtures.extract(name, copy);
      Policy expected;
      try {
        expected = PolicyLoader.validating().ignoringCompiled().load(base);
      } catch (PolicyException invalid) {
        // Refused as the validating load refuses it, and nothing written.
        PolicyException refused = assertThrows(PolicyException.class, () -> PolicyCache.compile(base));
        assertEquals(invalid.errors(), refused.errors(), name);
        assertFalse(Files.exists(PolicyCache.fileFor(base)), name);
        continue;
      }
      PolicyCache.compile(base);
      List<String> seen = new ArrayList<>();
      Policy loaded = PolicyLoader.lenient().warningsTo(seen::add).load(base);
      assertEquals(List.of(), seen, name);
      assertEquals(expected, loaded, name);
      compiled++;
    }
    assertTrue(compiled > Fixtures.names().size() / 2, "most fixtures validate: " + compiled);
  }

  @Test
  void debianPolicyCompilesToItsOwnPolicy() throws Exception {
    Path source = Oracles.DEBIAN_FILE_CONTEXTS;
    if (!Files.isRegularFile(source)) {
      if (Oracles.inCi()) {
        org.junit.jupiter.api.Assertions.fail("CI=true and " + source + " is missing (apt-get install selinux-policy-default)");
      }
      Assumptions.abort(source + " is missing");
    }
    for (String suffix : SourceStamp.SUFFIXES) {
      Path sibling = PolicyLoader.sibling(source, suffix);
      if (Files.exists(sibling)) {
        Files.copy(sibling, PolicyLoader.sibling(fileContexts, suffix), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.deleteIfExists(PolicyLoader.sibling(fileContexts, suffix));
      }
    }
    PolicyCache.compile(fileContexts);
    Policy policy = load();
    assertEquals(List.of(), warnings);
    assertEquals(text(), policy);
    assertTrue(policy.specs().size() > 1000, "Debian's policy has thousands of specs");
  }

  @Test
  void aChangedSourceMakesItStale() throws Exception {
    PolicyCache.compile(fileContexts);
    write("file_contexts.local", "/local\t\t" + A + "\n");
    Policy policy = load();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("ignoring compiled policy " + cache() + ": stale, " + dir.resolve("file_contexts.local")
        + " changed"), warnings.get(0));
    assertEquals(text(), policy);
    assertEquals(A, policy.specs().get(policy.specs().size() - 1).context());
  }

  @Test
  void sameSizeAndTimesButOtherBytesIsStale() throws Exception {
    PolicyCache.compile(fileContexts);
    Path local = dir.resolve("file_contexts.local");
    FileTime modified = Files.getLastModifiedTime(local);
    write("file_contexts.local", "/lOcal\t\t" + B + "\n");
    Files.setLastModifiedTime(local, modified);
    load();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("stale"), warnings.get(0));
  }

  @Test
  void aSourceThatAppearsOrVanishesMakesItStale() throws Exception {
    PolicyCache.compile(fileContexts);
    write("file_contexts.homedirs", "/home/[^/]+\t\t" + B + "\n");
    assertEquals(text(), load());
    assertTrue(warnings.get(0).endsWith(dir.resolve("file_contexts.homedirs") + " was created since it was compiled"
        + " (run 'relabel compile')"), warnings.get(0));
    PolicyCache.compile(fileContexts);
    Files.delete(dir.resolve("file_contexts.subs"));
    warnings.clear();
    assertEquals(text(), load());
    assertTrue(warnings.get(0).contains(dir.resolve("file_contexts.subs") + " was removed"), warnings.get(0));
  }

  @Test
  void aTouchedSourceWithTheSameBytesIsStillFresh() throws Exception {
    PolicyCache.compile(fileContexts);
    Path base = fileContexts;
    byte[] content = Files.readAllBytes(base);
    Files.delete(base);
    Files.write(base, content); // a new inode and new times, the same bytes
    assertEquals(text(), load());
    assertEquals(List.of(), warnings);
  }

  @Test
  void aTruncatedOneIsIgnored() throws Exception {
    PolicyCache.compile(fileContexts);
    byte[] bytes = Files.readAllBytes(cache());
    for (int length : new int[] {0, 10, bytes.length / 2, bytes.length - 1}) {
      Files.write(cache(), java.util.Arrays.copyOf(bytes, length));
      warnings.clear();
      assertEquals(text(), load());
      assertEquals(1, warnings.size(), length + ": " + warnings);
      assertTrue(warnings.get(0).matches("ignoring compiled policy .*: (not a relabel compiled policy|corrupt.*)"),
          length + ": " + warnings.get(0));
    }
  }

  @Test
  void aCorruptOneIsIgnored() throws Exception {
    PolicyCache.compile(fileContexts);
    byte[] bytes = Files.readAllBytes(cache());
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(cache(), bytes);
    assertEquals(text(), load());
    assertEquals(List.of("ignoring compiled policy " + cache() + ": corrupt or truncated (checksum mismatch)"), warnings);
  }

  @Test
  void anotherFormatOrVersionIsIgnored() throws Exception {
    Map<String, SourceStamp> stamps = new HashMap<>();
    Policy policy = PolicyLoader.validating().loadText(fileContexts, stamps);
    byte[] bytes = PolicyCache.encode(policy, stamps, new byte[0]);
    int formatAt = "relabel compiled file_contexts\n".length();
    ByteBuffer.wrap(bytes).putInt(formatAt, PolicyCache.FORMAT + 1);
    Files.write(cache(), withChecksum(bytes));
    assertEquals(text(), load());
    assertEquals(List.of("ignoring compiled policy " + cache() + ": written in format " + (PolicyCache.FORMAT + 1)
        + ", this relabel reads format " + PolicyCache.FORMAT + " (run 'relabel compile')"), warnings);

    // Another relabel's: the version string differs (same length, so the layout holds).
    bytes = PolicyCache.encode(policy, stamps, new byte[0]);
    String version = PolicyCache.relabelVersion();
    int versionAt = formatAt + 8;
    byte[] other = version.replace(version.charAt(0), version.charAt(0) == '9' ? '8' : '9')
        .getBytes(StandardCharsets.UTF_8);
    System.arraycopy(other, 0, bytes, versionAt, other.length);
    Files.write(cache(), withChecksum(bytes));
    warnings.clear();
    assertEquals(text(), load());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).startsWith("ignoring compiled policy " + cache() + ": written by relabel "
        + new String(other, StandardCharsets.UTF_8) + ", this is relabel " + version), warnings.get(0));
  }

  private static byte[] withChecksum(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    return bytes;
  }

  @Test
  void oneThatOthersCouldHaveWrittenIsNotTrusted() throws Exception {
    PolicyCache.compile(fileContexts);
    Files.setPosixFilePermissions(cache(), PosixFilePermissions.fromString("rw-rw-r--"));
    assertEquals(text(), load());
    assertEquals(List.of("ignoring compiled policy " + cache() + ": writable by group or others (mode 664)"), warnings);

    Files.setPosixFilePermissions(cache(), PosixFilePermissions.fromString("rw-r--r--"));
    if (!isRoot()) {
      if (Oracles.inCi()) {
        org.junit.jupiter.api.Assertions.fail("CI=true and not root: changing a file's owner needs root");
      }
      Assumptions.abort("changing a file's owner needs root");
    }
    Files.setAttribute(cache(), "unix:uid", 65534);
    warnings.clear();
    assertEquals(text(), load());
    assertEquals(List.of("ignoring compiled policy " + cache() + ": owned by uid 65534, neither root nor the user"
        + " running relabel"), warnings);
  }

  private static boolean isRoot() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
  }

  @Test
  void aMalformedPolicyIsRefusedAndTheOldCompiledOneKept() throws Exception {
    PolicyCache.compile(fileContexts);
    byte[] before = Files.readAllBytes(cache());
    write("file_contexts.local", "/local\t\tnot_a_context\n/x(\t\t" + A + "\n");
    PolicyException refused = assertThrows(PolicyException.class, () -> PolicyCache.compile(fileContexts));
    assertEquals(2, refused.errors().size(), refused.errors().toString());
    assertArrayEquals(before, Files.readAllBytes(cache()));
    // The kept one is stale now: a load says so and refuses the text as it is.
    assertThrows(PolicyException.class, this::load);
    assertTrue(warnings.get(0).contains("stale"), warnings.toString());
    assertNoTemporaryFiles();
  }

  @Test
  void itIsWrittenWholeWithItsModeAndNoTemporaryFileLeft() throws Exception {
    PolicyCache.compile(fileContexts);
    PolicyCache.compile(fileContexts);
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache())));
    assertNoTemporaryFiles();
  }

  @Test
  void anUnwritableDirectoryFailsAndWritesNothing() throws Exception {
    Path readOnly = Files.createDirectories(dir.resolve("ro"));
    Path base = Files.write(readOnly.resolve("file_contexts"), ("/\t\t" + A + "\n").getBytes(StandardCharsets.US_ASCII));
    // Root writes where modes say no; a regular file where the directory should be stops anyone.
    Path blocked = dir.resolve("blocked");
    Files.write(blocked, new byte[0]);
    assertThrows(IOException.class, () -> PolicyCache.compile(base, blocked.resolve("file_contexts.relabel"), policy -> new byte[0]));
    assertFalse(Files.exists(PolicyCache.fileFor(base)));
  }

  private void assertNoTemporaryFiles() throws IOException {
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList());
    }
  }
}
