package dev.relabel.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.regex.PcrePattern;
import dev.relabel.regex.PcreSyntaxException;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small random policies over a tiny alphabet (so that specs and paths collide often), with random
 * type flags, {@code <<none>>}, {@code .local} and aliases: ours against libselinux, by plain
 * lookup and by DirectoryMatch walk. Seeded, so a failure reproduces.
 */
class RandomPolicyDifferentialTest {
  private static final int POLICIES = 400;
  private static final int PATHS = 200;
  private static final FileType[] TYPES = FileType.values();
  private static final String[] FLAGS = {"--", "-d", "-l", "-c", "-b", "-s", "-p"};

  @TempDir
  Path dir;

  @Test
  void randomPoliciesAgreeWithLibselinux() throws Exception {
    if (!LibSelinux.available()) {
      if (Oracles.inCi()) {
        fail("CI=true and libselinux.so.1 is missing");
      }
      Assumptions.abort("libselinux.so.1 is missing");
    }
    List<String> problems = new ArrayList<>();
    for (int p = 0; p < POLICIES && problems.size() < 20; p++) {
      Random random = new Random(1000L + p);
      Path policyDir = dir.resolve("p" + p);
      Files.createDirectories(policyDir);
      Path base = policyDir.resolve("file_contexts");
      Files.writeString(base, specs(random, "base", 1 + random.nextInt(25)), StandardCharsets.US_ASCII);
      if (random.nextInt(3) == 0) {
        Files.writeString(policyDir.resolve("file_contexts.local"), specs(random, "local", 1 + random.nextInt(5)));
      }
      if (random.nextInt(3) == 0) {
        Files.writeString(policyDir.resolve("file_contexts.subs"), aliases(random));
      }
      if (random.nextInt(3) == 0) {
        Files.writeString(policyDir.resolve("file_contexts.subs_dist"), aliases(random));
      }
      LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(base));
      Map<String, DirectoryMatch> cache = new HashMap<>();
      try (LibSelinux reference = LibSelinux.open(base)) {
        for (int i = 0; i < PATHS; i++) {
          byte[] path = path(random);
          FileType type = TYPES[random.nextInt(TYPES.length)];
          Optional<String> expected;
          try {
            expected = reference.lookup(path, type.modeBits());
          } catch (IllegalStateException e) {
            problems.add("policy p" + p + " (seed " + (1000L + p) + "): libselinux fails on " + Fixtures.escape(path) + ": " + e.getMessage()
                + "\n" + Files.readString(base));
            break;
          }
          Label ours = matcher.lookup(path, type);
          if (!expected.equals(ours.context())) {
            problems.add("policy seed " + (1000L + p) + ": " + type.className() + " " + Fixtures.escape(path) + ": libselinux "
                + expected.orElse("ENOENT") + ", ours " + ours + "\n" + describe(policyDir));
            break;
          }
          Optional<Label> walked = FixtureDifferentialTest.walk(matcher, path, type, cache);
          if (walked.isPresent() && !walked.get().equals(ours)) {
            problems.add("policy seed " + (1000L + p) + ": " + type.className() + " " + Fixtures.escape(path) + ": walk "
                + walked.get() + ", plain " + ours);
          }
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  static String describe(Path policyDir) throws java.io.IOException {
    StringBuilder b = new StringBuilder();
    try (var files = Files.list(policyDir)) {
      for (Path file : files.sorted().toList()) {
        b.append("== ").append(file.getFileName()).append('\n').append(Files.readString(file, StandardCharsets.ISO_8859_1));
      }
    }
    return b.toString();
  }

  static String specs(Random random, String origin, int count) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < count; i++) {
      String regex;
      do {
        regex = regex(random);
      } while (!compiles(regex));
      b.append(regex);
      if (random.nextInt(4) == 0) {
        b.append(' ').append(FLAGS[random.nextInt(FLAGS.length)]);
      }
      b.append(' ').append(random.nextInt(8) == 0 ? "<<none>>" : "system_u:object_r:" + origin + i + "_t:s0").append('\n');
    }
    return b.toString();
  }

  private static boolean compiles(String regex) {
    try {
      PcrePattern.compile("^" + regex + "$");
      return true;
    } catch (PcreSyntaxException e) {
      return false;
    }
  }

  private static final String[] ATOMS = {
    "a", "b", "/", "/a", "/b", "ab", ".", "[ab]", "[^/]", "[^a]", "\\.", "\\/", "\\n", "x", "[[:alpha:]]",
    "\\w", "\\s", "\\d", "[a-b]", "\\\\", "\\-",
  };
  /** PCRE2 refuses a quantifier after these. */
  private static final String[] ASSERTIONS = {"$", "^", "\\z", "\\Z", "\\b", "\\B"};

  static String regex(Random random) {
    StringBuilder b = new StringBuilder();
    if (random.nextInt(5) != 0) {
      b.append(random.nextBoolean() ? "/a" : random.nextBoolean() ? "/b" : "/ab");
    }
    int parts = 1 + random.nextInt(5);
    for (int i = 0; i < parts; i++) {
      b.append(piece(random, 2));
    }
    if (random.nextInt(10) == 0) {
      b.append('|').append(piece(random, 1));
    }
    return b.toString();
  }

  private static String piece(Random random, int depth) {
    String atom;
    int kind = random.nextInt(10);
    if (depth > 0 && kind == 0) {
      atom = "(" + piece(random, depth - 1) + "|" + piece(random, depth - 1) + ")";
    } else if (depth > 0 && kind == 1) {
      atom = "(" + piece(random, depth - 1) + piece(random, depth - 1) + ")";
    } else if (kind == 2) {
      atom = "(/.*)";
    } else if (depth > 0 && kind == 3) {
      atom = random.nextBoolean() ? "(?!" + piece(random, depth - 1) + ")" : "(?=" + piece(random, depth - 1) + ")";
    } else if (kind == 4) {
      return ASSERTIONS[random.nextInt(ASSERTIONS.length)];
    } else {
      atom = ATOMS[random.nextInt(ATOMS.length)];
    }
    int q = random.nextInt(12);
    String quantifier = switch (q) {
      case 0 -> "*";
      case 1 -> "+";
      case 2 -> "?";
      case 3 -> "{1,2}";
      case 4 -> "*?";
      case 5 -> "{2}";
      default -> "";
    };
    return atom + quantifier;
  }

  static String aliases(Random random) {
    String[] ends = {"/", "/a", "/b", "/a/b", "/ab", "/b/a", "/x"};
    StringBuilder b = new StringBuilder();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      b.append(ends[random.nextInt(ends.length)]).append(' ').append(ends[random.nextInt(ends.length)]).append('\n');
    }
    return b.toString();
  }

  static byte[] path(Random random) {
    String[] parts = {"/", "/", "/", "a", "b", "ab", "x", ".", "\n", "-", "\\", "A", "1", " "};
    StringBuilder b = new StringBuilder(random.nextInt(6) == 0 ? "" : "/");
    int length = 1 + random.nextInt(8);
    for (int i = 0; i < length; i++) {
      b.append(parts[random.nextInt(parts.length)]);
    }
    return b.toString().getBytes(StandardCharsets.ISO_8859_1);
  }
}
