package dev.relabel.match;

import dev.relabel.policy.PathBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.PathCorpus;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The matcher's shortcuts (literal heads, required literals, per-directory narrowing) against its
 * own slow path, on Debian's policy and every path of this machine's /usr and /etc: the fast
 * answers must be the ones the expressions give.
 */
class MatcherConsistencyTest {
  private static LabelMatcher matcher;
  private static List<String> keys;
  private static List<FileType> types;

  @BeforeAll
  static void load() throws Exception {
    if (!Files.isRegularFile(Oracles.DEBIAN_FILE_CONTEXTS)) {
      if (Oracles.inCi()) {
        fail("CI=true and Debian's policy is missing: apt-get install selinux-policy-default");
      }
      Assumptions.abort("Debian's policy is not installed");
    }
    matcher = LabelMatcher.compile(PolicyLoader.lenient().load(Oracles.DEBIAN_FILE_CONTEXTS));
    keys = new ArrayList<>();
    types = new ArrayList<>();
    for (PathCorpus.Entry entry : PathCorpus.walk(List.of(Path.of("/usr"), Path.of("/etc")), 400_000)) {
      keys.add(PathBytes.latin1(entry.path()));
      types.add(FileType.fromMode(entry.modeBits()));
    }
    assertTrue(keys.size() > 10_000, "corpus too small: " + keys.size());
  }

  @Test
  void shortcutsAgreeWithTheExpressions() {
    int checked = 0;
    List<String> wrong = new ArrayList<>();
    // Every spec against every eighth path: 20,000 paths times 5,287 specs.
    for (int k = 0; k < keys.size(); k += 8) {
      String key = matcher.normalizer().key(keys.get(k));
      for (int rank = 0; rank < matcher.specCount(); rank++) {
        CompiledSpec spec = matcher.spec(rank);
        if (!key.startsWith(spec.requiredPrefix)) {
          // The expression must not match keys outside its required prefix either.
          if (spec.matchesByExpression(key)) {
            wrong.add(spec.spec + " matches " + key + " outside its prefix " + spec.requiredPrefix);
          }
          continue;
        }
        checked++;
        if (spec.matches(key) != spec.matchesByExpression(key)) {
          wrong.add(spec.spec + " (" + spec.shape() + ") on " + key + ": shortcut " + spec.matches(key));
        }
      }
      if (wrong.size() > 20) {
        break;
      }
    }
    assertEquals(List.of(), wrong, "checked " + checked + " spec/key pairs");
  }

  @Test
  void directoryNarrowingNeverDropsWhatTheExpressionKeeps() {
    java.util.Set<String> directories = new java.util.TreeSet<>();
    for (String path : keys) {
      int slash = path.lastIndexOf('/');
      directories.add(slash == 0 ? "/" : path.substring(0, slash + 1));
    }
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (String prefix : directories) {
      String keyPrefix = prefix.equals("/") ? "/" : matcher.normalizer().key(prefix) + "/";
      for (int rank = 0; rank < matcher.specCount() && wrong.size() < 20; rank++) {
        CompiledSpec spec = matcher.spec(rank);
        if (!keyPrefix.startsWith(spec.requiredPrefix) && !spec.requiredPrefix.startsWith(keyPrefix)) {
          continue;
        }
        checked++;
        if (!spec.mayMatchExtensionOf(keyPrefix) && spec.mayMatchExtensionByExpression(keyPrefix)) {
          wrong.add(spec.spec + " (" + spec.shape() + ") dropped under " + keyPrefix);
        }
      }
    }
    assertEquals(List.of(), wrong, "checked " + checked + " directory/spec pairs");
    assertTrue(checked > 100_000, "too few pairs checked: " + checked);
  }

  @Test
  void directoryWalkAgreesWithPlainLookup() {
    Map<String, DirectoryMatch> directories = new HashMap<>();
    directories.put("/", matcher.directory("/"));
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      String path = keys.get(i);
      int slash = path.lastIndexOf('/');
      String parent = slash == 0 ? "/" : path.substring(0, slash);
      DirectoryMatch directory = enter(directories, parent);
      Label walked = directory.lookup(path.substring(slash + 1), types.get(i));
      Label plain = matcher.lookup(path, types.get(i));
      if (!walked.equals(plain)) {
        wrong.add(path + ": walked " + walked + ", plain " + plain);
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())), wrong.size() + " disagreements");
  }

  private static DirectoryMatch enter(Map<String, DirectoryMatch> directories, String path) {
    DirectoryMatch known = directories.get(path);
    if (known != null) {
      return known;
    }
    int slash = path.lastIndexOf('/');
    String parent = slash == 0 ? "/" : path.substring(0, slash);
    DirectoryMatch entered = enter(directories, parent).enter(path.substring(slash + 1));
    directories.put(path, entered);
    return entered;
  }
}
