package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.PathCorpus;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Policy;
import dev.relabel.policy.PolicyCache;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matcher's section of a compiled policy ({@link MatcherImage}): the search order and prefix
 * index a start reads instead of building are the ones it would build, a matcher that reads them
 * answers as one built from the text, and a section that does not fit is ignored, never trusted.
 */
class MatcherImageTest {
  @TempDir
  Path dir;

  @Test
  void theStoredOrderAndIndexAreTheBuiltOnes() throws Exception {
    int compared = 0;
    for (String name : Fixtures.names()) {
      Path fileContexts = Fixtures.extract(name, Files.createDirectories(dir.resolve(name)));
      if (!validates(fileContexts)) {
        continue;
      }
      compareWithText(fileContexts, name);
      compared++;
    }
    assertTrue(compared > Fixtures.names().size() / 2, "most fixtures validate: " + compared);
    compareWithText(debianCopy(), "debian");
  }

  @Test
  void aMatcherThatReadsItAnswersAsTheText() throws Exception {
    Path fileContexts = debianCopy();
    PolicyCache.compile(fileContexts, LabelMatcher::compiledSection);
    LabelMatcher stored = LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts));
    LabelMatcher text = LabelMatcher.compile(PolicyLoader.lenient().ignoringCompiled().load(fileContexts));
    assertTrue(stored.readFromSection());
    assertFalse(text.readFromSection());
    Map<String, DirectoryMatch> directories = new HashMap<>();
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (PathCorpus.Entry entry : PathCorpus.walk(List.of(Path.of("/usr"), Path.of("/etc")), 60_000)) {
      String path = PathBytes.latin1(entry.path());
      FileType type = FileType.fromMode(entry.modeBits());
      Label expected = text.lookup(path, type);
      Label plain = stored.lookup(path, type);
      int slash = path.lastIndexOf('/');
      String parent = slash == 0 ? "/" : path.substring(0, slash);
      Label walked = directories.computeIfAbsent(parent, stored::directory).lookup(path.substring(slash + 1), type);
      if (!expected.equals(plain) || !expected.equals(walked)) {
        wrong.add(path + ": text " + expected + ", stored " + plain + ", walked " + walked);
      }
      if (entry.modeBits() == 0040000) {
        assertEquals(text.partialMatchDigest(path).map(Arrays::toString),
            stored.partialMatchDigest(path).map(Arrays::toString), path);
      }
      checked++;
    }
    assertTrue(checked > 10_000, "corpus too small: " + checked);
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
    assertEquals(text.specsInLibselinuxOrder(), stored.specsInLibselinuxOrder());
  }

  @Test
  void aSectionThatDoesNotFitIsIgnored() throws Exception {
    Path fileContexts = Fixtures.extract("sample", dir);
    Policy text = PolicyLoader.lenient().ignoringCompiled().load(fileContexts);
    byte[] good = LabelMatcher.compiledSection(text);
    Map<String, Function<Policy, byte[]>> unfit = Map.of(
        "another format", policy -> withInt(good, 0, 99),
        "another spec count", policy -> withInt(good, 4, text.specs().size() + 1),
        "truncated", policy -> Arrays.copyOf(good, good.length - 5),
        "trailing bytes", policy -> Arrays.copyOf(good, good.length + 3),
        "too short to say", policy -> new byte[] {0, 0, 0, 1},
        "no section", policy -> new byte[0]);
    LabelMatcher reference = LabelMatcher.compile(text);
    for (Map.Entry<String, Function<Policy, byte[]>> section : unfit.entrySet()) {
      PolicyCache.compile(fileContexts, section.getValue());
      LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts));
      assertFalse(matcher.readFromSection(), section.getKey());
      assertArrayEquals(reference.specAtRank(), matcher.specAtRank(), section.getKey());
      assertEquals(reference.index(), matcher.index(), section.getKey());
    }
    PolicyCache.compile(fileContexts, LabelMatcher::compiledSection);
    assertTrue(LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts)).readFromSection());
  }

  private static byte[] withInt(byte[] bytes, int at, int value) {
    byte[] changed = bytes.clone();
    ByteBuffer.wrap(changed).putInt(at, value);
    return changed;
  }

  /** Compiles {@code fileContexts} with its section and holds what a load reads back to the text's. */
  private static void compareWithText(Path fileContexts, String name) throws Exception {
    PolicyCache.compile(fileContexts, LabelMatcher::compiledSection);
    LabelMatcher stored = LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts));
    LabelMatcher text = LabelMatcher.compile(PolicyLoader.lenient().ignoringCompiled().load(fileContexts));
    assertTrue(stored.readFromSection(), name);
    assertArrayEquals(text.specAtRank(), stored.specAtRank(), name);
    assertEquals(text.index(), stored.index(), name);
  }

  private static boolean validates(Path fileContexts) {
    try {
      PolicyLoader.validating().ignoringCompiled().load(fileContexts);
      return true;
    } catch (PolicyException invalid) {
      return false;
    }
  }

  /** A copy of Debian's policy files in the test's directory, where compiling it writes nothing of the system's. */
  private Path debianCopy() throws Exception {
    String missing = Oracles.missing();
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
    return Oracles.copyDebianPolicy(Files.createDirectories(dir.resolve("debian")));
  }
}
