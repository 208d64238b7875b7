package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.PathCorpus;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Our matcher against the system's libselinux on Debian's real policy and this machine's paths. */
class LibselinuxDifferentialTest {
  private static LabelMatcher matcher;
  private static LibSelinux reference;

  @BeforeAll
  static void open() throws Exception {
    String missing = Oracles.missing();
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
    matcher = LabelMatcher.compile(PolicyLoader.lenient().load(Oracles.DEBIAN_FILE_CONTEXTS));
    reference = LibSelinux.open(Oracles.DEBIAN_FILE_CONTEXTS);
  }

  @Test
  void machinePathsAgreeWithLibselinux() throws Exception {
    List<PathCorpus.Entry> corpus = PathCorpus.walk(
        List.of(Path.of("/etc"), Path.of("/usr"), Path.of("/var"), Path.of("/dev"), Path.of("/run"), Path.of("/opt"),
            Path.of("/root"), Path.of("/home"), Path.of("/srv"), Path.of("/boot")),
        15_000);
    assertTrue(corpus.size() >= 10_000, "corpus too small: " + corpus.size());
    List<String> disagreements = new ArrayList<>();
    int compared = 0;
    for (PathCorpus.Entry entry : corpus) {
      for (int mode : new int[] {entry.modeBits(), 0}) {
        compared++;
        Optional<String> expected = reference.lookup(entry.path(), mode);
        Label actual = matcher.lookup(entry.path(), FileType.fromMode(mode));
        if (!expected.equals(actual.context())) {
          disagreements.add(new String(entry.path(), StandardCharsets.ISO_8859_1) + " mode " + Integer.toOctalString(mode)
              + ": libselinux " + expected.orElse("ENOENT") + ", ours " + actual);
        }
      }
    }
    assertEquals(List.of(), disagreements.subList(0, Math.min(50, disagreements.size())),
        disagreements.size() + " of " + compared + " lookups disagree");
  }
}
