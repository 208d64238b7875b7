package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathBytesTest {
  private static final Charset UTF8 = new EscapingCharset(StandardCharsets.UTF_8);
  private static final Charset ASCII = new EscapingCharset(StandardCharsets.US_ASCII);

  @Test
  void everyByteStringSurvivesADecodeAndAnEncode() {
    Random random = new Random(14);
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = new byte[random.nextInt(12)];
      random.nextBytes(bytes);
      if (i % 3 == 0) {
        // Mostly valid UTF-8, some of it cut: the sequences a locale half decodes.
        byte[] text = ("aé€𝄞/" + (char) ('a' + random.nextInt(26))).getBytes(StandardCharsets.UTF_8);
        bytes = java.util.Arrays.copyOf(text, random.nextInt(text.length + 1));
      }
      byte[] given = bytes;
      for (Charset charset : new Charset[] {UTF8, ASCII}) {
        String text = new String(given, charset);
        assertArrayEquals(given, text.getBytes(charset), () -> java.util.Arrays.toString(given) + " in " + charset);
      }
    }
  }

  @Test
  void textTheLocaleDecodesIsTheJdksTextAndOtherBytesAreLoneSurrogates() {
    byte[] valid = "caf\u00e9 \u20ac".getBytes(StandardCharsets.UTF_8);
    assertEquals(new String(valid, StandardCharsets.UTF_8), new String(valid, UTF8));
    assertEquals("caf\uDCC3\uDCA9 \uDCE2\uDC82\uDCAC", new String(valid, ASCII));
    assertEquals("l\uDCE9.txt", new String(new byte[] {'l', (byte) 0xe9, '.', 't', 'x', 't'}, UTF8));
    // Text from elsewhere that the locale cannot hold is replaced, as the JDK's charsets do.
    assertArrayEquals("caf?".getBytes(StandardCharsets.US_ASCII), "caf\u00e9".getBytes(ASCII));
    assertTrue(PathBytes.isUtf8(UTF8) && PathBytes.isUtf8(StandardCharsets.UTF_8) && !PathBytes.isUtf8(ASCII));
  }

  @Test
  void aSurrogatePairSplitAcrossTwoBuffersIsEncodedWhole() throws Exception {
    java.nio.charset.CharsetEncoder encoder = UTF8.newEncoder();
    java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(16);
    java.nio.CharBuffer first = java.nio.CharBuffer.wrap("a\uD834");
    assertTrue(encoder.encode(first, out, false).isUnderflow());
    java.nio.CharBuffer rest = java.nio.CharBuffer.wrap(first.toString() + "\uDD1Eb"); // the high half again, kept
    assertTrue(encoder.encode(rest, out, true).isUnderflow());
    assertArrayEquals("a\uD834\uDD1Eb".getBytes(StandardCharsets.UTF_8), java.util.Arrays.copyOf(out.array(), out.position()));
  }

  /**
   * A name holding a byte no locale here decodes (0xe9 is neither UTF-8 nor ASCII; this JVM's
   * sun.jnu.encoding is one of them): the JDK lists it, but its text is lossy. {@code of} gives its
   * bytes, listed or as a relative path; {@code path} names it from an argument's text, absolute and
   * relative, nonexistent names and a suffixed sibling too; java.io is told it cannot name it.
   */
  @Test
  void aNameTheLocaleCannotDecodeIsNamedByItsBytes(@TempDir Path dir) throws Exception {
    assertTrue(!PathBytes.localeCharset(PathBytes.charset()).equals(StandardCharsets.ISO_8859_1), "needs a locale that cannot decode 0xe9");
    AttrTrees.touchRaw(dir, "caf\u00e9", dir);
    Path listed;
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      listed = entries.findFirst().orElseThrow();
    }
    byte[] expected = (PathBytes.latin1(PathBytes.of(dir)) + "/caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);
    assertArrayEquals(expected, PathBytes.of(listed));
    assertTrue(!PathBytes.textNames(listed) && PathBytes.textNames(dir));
    Path relative = Path.of("").toAbsolutePath().relativize(listed);
    assertArrayEquals(PathBytes.fromLatin1(PathBytes.latin1(PathBytes.of(Path.of("").toAbsolutePath().relativize(dir)))
        + "/caf\u00e9"), PathBytes.of(relative));

    String argument = new String(expected, PathBytes.charset());
    Path named = PathBytes.path(argument);
    assertTrue(Files.isSameFile(listed, named));
    assertArrayEquals(expected, PathBytes.of(named));
    // "../..": relative too, each "." and ".." kept (messages print the path as given)
    Path climbing = PathBytes.path(new String(PathBytes.of(relative), PathBytes.charset()));
    assertTrue(Files.isSameFile(listed, climbing));
    assertTrue(!climbing.isAbsolute(), "relative as given: " + climbing);
    assertArrayEquals(PathBytes.of(relative), PathBytes.of(climbing));
    assertEquals("./../d/./caf\uDCE9", PathBytes.text(PathBytes.path("./../d/./caf\uDCE9")));
    assertEquals("/d/caf\uDCE9", PathBytes.text(PathBytes.path("//d//caf\uDCE9/")));
    Path plain = PathBytes.path("d/caf\uDCE9");
    assertTrue(!plain.isAbsolute(), "relative as given: " + plain);
    assertArrayEquals(new byte[] {'d', '/', 'c', 'a', 'f', (byte) 0xe9}, PathBytes.of(plain));
    assertEquals("d/caf\uDCE9", PathBytes.text(plain));
    Path sibling = PathBytes.withSuffix(named, ".bin");
    Files.writeString(sibling, "x");
    assertArrayEquals((PathBytes.latin1(expected) + ".bin").getBytes(StandardCharsets.ISO_8859_1), PathBytes.of(sibling));
    Path fresh = PathBytes.path(argument + "-new\uDCFF");
    Files.writeString(fresh, "y");
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      assertEquals(3, entries.count());
    }
    assertEquals("y", Files.readString(fresh));
    assertEquals(Path.of("plain"), PathBytes.path("plain"));
  }

  @Test
  void absoluteBytesAreWhatPathNormalizeMakes() {
    for (String path : new String[] {"/", "//", "/a//b/", "/a/./b/../c", "/..", "/../a", "a/b", ".", "..", "./a/..",
        "/a/b/../../..", "a//b/./"}) {
      byte[] expected = Path.of(path).toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8);
      assertEquals(PathBytes.latin1(expected), PathBytes.latin1(PathBytes.absolute(path.getBytes(StandardCharsets.UTF_8))),
          path);
    }
    byte[] latin1 = {'/', 'd', (byte) 0xe9, '/', '.', '/', 'x'};
    assertArrayEquals(new byte[] {'/', 'd', (byte) 0xe9, '/', 'x'}, PathBytes.absolute(latin1));
  }
}
