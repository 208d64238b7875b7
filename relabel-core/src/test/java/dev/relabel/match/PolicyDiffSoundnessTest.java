package dev.relabel.match;

import dev.relabel.policy.PathBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PolicyDiff} never calls a subtree unaffected when an entry beneath it is labelled
 * otherwise: random policies (any expression the generator makes, aliases too), each against a
 * copy with one line changed, added or removed, checked on random directories and random paths
 * beneath them. Seeded, so a failure reproduces.
 */
class PolicyDiffSoundnessTest {
  private static final FileType[] TYPES = FileType.values();

  @TempDir Path dir;

  @Test
  void anUnaffectedSubtreeHasNoEntryLabelledOtherwise() throws Exception {
    List<String> problems = new ArrayList<>();
    int pruned = 0;
    int notPruned = 0;
    for (int p = 0; p < 300 && problems.size() < 5; p++) {
      Random random = new Random(9000L + p);
      List<String> lines = new ArrayList<>(Arrays.asList(
          RandomPolicyDifferentialTest.specs(random, "base", 2 + random.nextInt(20)).split("\n")));
      String aliases = random.nextInt(4) == 0 ? RandomPolicyDifferentialTest.aliases(random) : null;
      LabelMatcher previous = load("p" + p + "a", lines, aliases);
      List<String> changed = new ArrayList<>(lines);
      int at = random.nextInt(changed.size());
      switch (random.nextInt(3)) {
        case 0 -> changed.set(at, changed.get(at).replaceAll("\\S+$", "system_u:object_r:changed_t:s0"));
        case 1 -> changed.remove(at);
        default -> changed.add(at, RandomPolicyDifferentialTest.specs(random, "new", 1).trim());
      }
      LabelMatcher current = load("p" + p + "b", changed, aliases);
      PolicyDiff diff = PolicyDiff.between(previous, current);
      for (int d = 0; d < 40; d++) {
        String directory = PathBytes.latin1(RandomPolicyDifferentialTest.path(random));
        if (!directory.startsWith("/")) {
          continue;
        }
        if (diff.mayDifferBeneath(directory)) {
          notPruned++;
          continue;
        }
        pruned++;
        for (int e = 0; e < 30; e++) {
          String beneath = (directory.equals("/") ? "" : directory) + "/"
              + PathBytes.latin1(RandomPolicyDifferentialTest.path(random)).replaceFirst("^/+", "");
          FileType type = TYPES[random.nextInt(TYPES.length)];
          if (!previous.lookup(beneath, type).sameOutcome(current.lookup(beneath, type))) {
            problems.add("seed " + (9000L + p) + ": " + Fixtures.escape(PathBytes.fromLatin1(directory))
                + " called unaffected, but " + Fixtures.escape(PathBytes.fromLatin1(beneath)) + " (" + type + "): "
                + previous.lookup(beneath, type) + " before, " + current.lookup(beneath, type) + " after\n"
                + String.join("\n", lines) + "\n--- changed\n" + String.join("\n", changed));
            break;
          }
        }
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(pruned > 1_000 && notPruned > 1_000, "pruned " + pruned + ", not pruned " + notPruned);
  }

  private LabelMatcher load(String name, List<String> lines, String aliases) throws Exception {
    Path policy = Files.createDirectories(dir.resolve(name)).resolve("file_contexts");
    Files.writeString(policy, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
    if (aliases != null) {
      Files.writeString(dir.resolve(name).resolve("file_contexts.subs"), aliases);
    }
    return LabelMatcher.compile(PolicyLoader.lenient().load(policy));
  }
}
