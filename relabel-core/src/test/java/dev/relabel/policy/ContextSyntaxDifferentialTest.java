package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The context check against the one reference that reads a range without a kernel: setfiles
 * {@code -c} with Debian's policy binary, which checks each spec's context with libsepol's
 * {@code sepol_check_context} (the kernel's grammar, and the policy's names, order and
 * dominance). relabel checks only what no policy could accept, so it may never refuse a context
 * setfiles {@code -c} takes, and must refuse each range malformed whatever the policy. (Without
 * {@code -c} and without SELinux, setfiles and matchpathcon take any context: nothing checks it.)
 */
class ContextSyntaxDifferentialTest {
  private static final Path POLICY_DIR = Path.of("/etc/selinux/default/policy");
  private static final String PREFIX = "system_u:object_r:etc_t:";
  /** Ranges no policy accepts: setfiles -c and relabel must both refuse each. */
  private static final List<String> MALFORMED = List.of(
      "s0--s0", "s0--s1", "s0-", "-s0", "s0-s0-s0", "s0:", "s0::c0", "s0:c0:c1", "s0:c0,", "s0:,c0", "s0:c0,,c1",
      "s0:c0..c3", "s0:.c3", "s0:c0.", "s0:c0.c0", "s0-s0:", "s0-:c0", "s0:c0-", "s0:c0--s0", "", ":", "-",
      "s0:c0,c1.c1", "s0-s0:c0.");
  /**
   * libsepol 3.4 stops reading after a second level's categories when a '-' follows, and takes
   * whatever comes after it; the kernel, which decides on an SELinux system, cuts the range at its
   * first '-' and refuses the rest as a category name. relabel refuses them as the kernel does.
   */
  private static final List<String> TAKEN_BY_LIBSEPOL_ONLY = List.of(
      "s0-s0:c0-", "s0-s0:c0-s0", "s0-s0:c0-xyz", "s0:c0.c1023,c1-s0:c0.c1023-");
  /** Ranges Debian's policy accepts: both take each. */
  private static final List<String> VALID = List.of(
      "s0", "s0-s0", "s0:c0", "s0:c0,c1", "s0:c0.c3", "s0-s0:c0.c1023", "s0:c1,c0", "s0:c0,c0", "s0:c0.c2,c5");

  @TempDir
  static Path scratch;
  private static Path policy;

  @BeforeAll
  static void requireSetfilesAndPolicy() throws IOException {
    AttrTrees.requireTools(true);
    try (Stream<Path> files = Files.list(POLICY_DIR)) {
      policy = files.filter(p -> p.getFileName().toString().startsWith("policy.")).findFirst().orElse(null);
    } catch (IOException e) {
      policy = null;
    }
    if (policy == null) {
      AttrTrees.unavailable(POLICY_DIR + "/policy.* is missing (apt-get install selinux-policy-default)");
    }
  }

  /** Whether setfiles -c POLICY takes a spec file whose one spec has {@code context}. */
  private static boolean setfilesTakes(String context) throws Exception {
    Path fileContexts = Files.writeString(scratch.resolve("file_contexts"), "/a  " + context + "\n");
    AttrTrees.Run run = AttrTrees.run(List.of(AttrTrees.SETFILES.toString(), "-c", policy.toString(),
        fileContexts.toString()), scratch);
    assertTrue(run.status() == 0 || run.err().contains("invalid context " + context), run::toString);
    return run.status() == 0;
  }

  private static boolean relabelTakes(String context) {
    return ContextSyntax.problem(context).isEmpty();
  }

  @Test
  void malformedRangesAreRefusedAsSetfilesRefusesThem() throws Exception {
    for (String range : MALFORMED) {
      assertEquals(false, setfilesTakes(PREFIX + range), range);
      assertEquals(false, relabelTakes(PREFIX + range), range);
    }
    for (String range : TAKEN_BY_LIBSEPOL_ONLY) {
      assertEquals(true, setfilesTakes(PREFIX + range), range);
      assertEquals(false, relabelTakes(PREFIX + range), range);
    }
    for (String range : VALID) {
      assertEquals(true, setfilesTakes(PREFIX + range), range);
      assertEquals(true, relabelTakes(PREFIX + range), range);
    }
  }

  /**
   * Random ranges of Debian's names and the separators: relabel refuses none that setfiles -c
   * takes (but libsepol's quirk above), and takes none with an empty sensitivity or category or a
   * second '-' (a sensitivity may hold a '.', so a '.' alone decides nothing without the policy).
   */
  @Test
  void randomRangesAreNeverRefusedWhereSetfilesTakesThem() throws Exception {
    String[] tokens = {"s0", "s0", "c0", "c1", "c3", "c1023", "-", ":", ":", ",", ".", "s0-s0"};
    Random random = new Random(20241204);
    List<String> disagreements = new ArrayList<>();
    int taken = 0;
    for (int i = 0; i < 150; i++) {
      StringBuilder range = new StringBuilder(i % 3 == 0 ? "s0:" : "s0");
      for (int n = random.nextInt(5); n > 0; n--) {
        range.append(tokens[random.nextInt(tokens.length)]);
      }
      String context = PREFIX + range;
      boolean setfiles = setfilesTakes(context);
      boolean ours = relabelTakes(context);
      taken += setfiles ? 1 : 0;
      if (setfiles && !ours && !range.toString().matches("[^-]*-[^-:]*:[^-]*-.*")) { // not libsepol's quirk
        disagreements.add(range + ": setfiles -c takes it, relabel refuses it");
      }
      if (ours && (range.toString().matches(".*(--|-$|^-|:$|:-|::|,,|,$|:,|,-).*"))) {
        disagreements.add(range + ": relabel takes a range with an empty piece");
      }
    }
    assertEquals(List.of(), disagreements);
    assertTrue(taken > 10, "the sample holds valid ranges too: " + taken);
  }
}
