package dev.relabel.match;

import dev.relabel.policy.PathBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.AdversarialPaths;
import dev.relabel.fixtures.Fixtures;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PathAlias;
import dev.relabel.policy.Policy;
import dev.relabel.policy.PolicyCache;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.policy.Spec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every fixture three ways: libselinux (the system's, through JNA) must give the answers of the
 * fixture's {@code expected.tsv}, and so must our {@link LabelMatcher}, by plain lookup and by a
 * {@link DirectoryMatch} walk from "/"; then adversarial paths, ours against libselinux, on each
 * fixture and on Debian's real policy.
 */
class FixtureDifferentialTest {
  private static final int PATHS_PER_FIXTURE = 2_000;
  private static final int DEBIAN_PATHS = 20_000;
  /** The typed requests made besides mode 0, one per path in turn. */
  private static final FileType[] TYPES = {
    FileType.REGULAR_FILE, FileType.DIRECTORY, FileType.SYMLINK, FileType.CHAR_DEVICE,
    FileType.BLOCK_DEVICE, FileType.SOCKET, FileType.FIFO
  };
  private static final int MAX_REPORTED = 40;

  @TestFactory
  Stream<DynamicTest> expectedAnswers() {
    return Fixtures.names().stream().map(name -> DynamicTest.dynamicTest(name, () -> checkExpectations(name)));
  }

  @TestFactory
  Stream<DynamicTest> adversarialPathsOnFixtures() {
    return Fixtures.names().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
      requireLibselinux();
      Path dir = Files.createTempDirectory("relabel-fixture-");
      try {
        Path fileContexts = Fixtures.extract(name, dir);
        // The expected rows' paths are prefixes too: generated paths then vary them.
        List<String> rows = Fixtures.expectations(name).stream().map(row -> PathBytes.latin1(row.path())).toList();
        compareAdversarial(fileContexts, name.hashCode(), PATHS_PER_FIXTURE, rows);
      } finally {
        deleteTree(dir);
      }
    }));
  }

  @Test
  void adversarialPathsOnDebianPolicy() throws Exception {
    String missing = Oracles.missing();
    if (missing != null) {
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
    compareAdversarial(Oracles.DEBIAN_FILE_CONTEXTS, 20230101L, DEBIAN_PATHS, List.of());
  }

  /**
   * The same comparisons on compiled policies ({@link PolicyCache}): each fixture that validates,
   * and Debian's policy, compiled beside a copy of its text files with the matcher's section, then
   * loaded from the compiled file (whose specs, order and index the loader and matcher must have
   * used) and held to libselinux reading the text.
   */
  @TestFactory
  Stream<DynamicTest> adversarialPathsOnCompiledPolicies() {
    List<String> names = new ArrayList<>(Fixtures.names());
    names.add("debian");
    return names.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
      requireLibselinux();
      Path dir = Files.createTempDirectory("relabel-compiled-");
      try {
        Path fileContexts;
        List<String> prefixes = List.of();
        if (name.equals("debian")) {
          String missing = Oracles.missing();
          if (missing != null) {
            if (Oracles.inCi()) {
              fail("CI=true and the reference is unavailable: " + missing);
            }
            Assumptions.abort(missing);
          }
          fileContexts = Oracles.copyDebianPolicy(dir);
        } else {
          fileContexts = Fixtures.extract(name, dir);
          prefixes = Fixtures.expectations(name).stream().map(row -> PathBytes.latin1(row.path())).toList();
        }
        try {
          PolicyLoader.validating().ignoringCompiled().load(fileContexts);
        } catch (dev.relabel.policy.PolicyException invalid) {
          return; // never compiled: PolicyCacheTest holds that it is refused
        }
        PolicyCache.compile(fileContexts, LabelMatcher::compiledSection);
        assertEquals(Optional.empty(), PolicyCache.problem(fileContexts), name);
        assertTrue(LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts)).readFromSection(), name);
        compareAdversarial(fileContexts, name.hashCode() + 1, name.equals("debian") ? DEBIAN_PATHS : PATHS_PER_FIXTURE,
            prefixes);
      } finally {
        deleteTree(dir);
      }
    }));
  }

  private static void checkExpectations(String name) throws Exception {
    requireLibselinux();
    Path dir = Files.createTempDirectory("relabel-fixture-");
    try {
      Path fileContexts = Fixtures.extract(name, dir);
      LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.lenient().load(fileContexts));
      List<Fixtures.Expectation> rows = Fixtures.expectations(name);
      List<String> problems = new ArrayList<>();
      int walked = 0;
      try (LibSelinux reference = LibSelinux.open(fileContexts)) {
        for (Fixtures.Expectation row : rows) {
          Optional<String> libselinux = reference.lookup(row.path(), row.modeBits());
          if (!libselinux.equals(row.context())) {
            problems.add(row + ": libselinux answers " + libselinux.orElse("ENOENT"));
          }
          FileType type = FileType.fromClassName(row.type()).orElseThrow();
          Label ours = matcher.lookup(row.path(), type);
          if (!agrees(row, ours)) {
            problems.add(row + ": our lookup answers " + ours);
          }
          Optional<Label> walk = walk(matcher, row.path(), type, null);
          if (walk.isPresent()) {
            walked++;
            if (!walk.get().equals(ours)) {
              problems.add(row + ": our DirectoryMatch walk answers " + walk.get() + ", plain lookup " + ours);
            }
            Label direct = viaParent(matcher, row.path(), type);
            if (!direct.equals(ours)) {
              problems.add(row + ": directory(parent).lookup answers " + direct + ", plain lookup " + ours);
            }
          }
        }
      }
      assertEquals(List.of(), problems, name + ": " + problems.size() + " of " + rows.size() + " rows disagree");
      assertTrue(walked > 0, name + ": no row could be walked");
    } finally {
      deleteTree(dir);
    }
  }

  private static boolean agrees(Fixtures.Expectation row, Label label) {
    if (row.isNone()) {
      return label.kind() == Label.Kind.NONE;
    }
    if (row.isNoMatch()) {
      return label.kind() == Label.Kind.NO_MATCH;
    }
    return label.kind() == Label.Kind.CONTEXT && label.context().orElseThrow().equals(row.answer());
  }

  /**
   * Ours against libselinux on generated paths: mode 0 and one type per path, by plain lookup; the
   * DirectoryMatch walk must agree with the plain lookup.
   */
  private static void compareAdversarial(Path fileContexts, long seed, int count, List<String> morePrefixes)
      throws Exception {
    Policy policy = PolicyLoader.lenient().load(fileContexts);
    LabelMatcher matcher = LabelMatcher.compile(policy);
    Set<String> prefixes = interestingPrefixes(policy);
    prefixes.addAll(morePrefixes);
    List<byte[]> paths = AdversarialPaths.generate(seed, count, prefixes);
    List<String> problems = new ArrayList<>();
    int compared = 0;
    int failures = 0;
    Map<String, DirectoryMatch> directories = new HashMap<>();
    Set<String> contexts = new java.util.HashSet<>();
    int walked = 0;
    try (LibSelinux reference = LibSelinux.open(fileContexts)) {
      for (int i = 0; i < paths.size(); i++) {
        byte[] path = paths.get(i);
        for (FileType type : new FileType[] {FileType.ANY, TYPES[i % TYPES.length]}) {
          compared++;
          Optional<String> expected = reference.lookup(path, type.modeBits());
          expected.ifPresent(contexts::add);
          Label ours = matcher.lookup(path, type);
          String problem = null;
          if (!expected.equals(ours.context())) {
            problem = "libselinux " + expected.orElse("ENOENT") + ", ours " + ours;
          } else {
            Optional<Label> walk = walk(matcher, path, type, directories);
            walked += walk.isPresent() ? 1 : 0;
            if (walk.isPresent() && !walk.get().equals(ours)) {
              problem = "DirectoryMatch walk " + walk.get() + ", plain lookup " + ours;
            }
          }
          if (problem != null) {
            failures++;
            if (problems.size() < MAX_REPORTED) {
              problems.add(type.className() + " " + Fixtures.escape(path) + ": " + problem);
            }
          }
        }
        if (directories.size() > 100_000) {
          directories.clear();
        }
      }
    }
    assertEquals(List.of(), problems, fileContexts + ": " + failures + " of " + compared + " lookups disagree");
    // Guards against a generator that no longer reaches the policy's specs.
    String stats = compared + " lookups, " + walked + " walked, " + contexts.size() + " distinct contexts";
    assertTrue(walked > compared / 4, fileContexts + ": too few walks: " + stats);
    assertTrue(contexts.size() >= Math.min(4, policy.specs().size() / 3 + 1), fileContexts + ": too few contexts: " + stats);
    assertTrue(fileContexts != Oracles.DEBIAN_FILE_CONTEXTS || contexts.size() >= 300, "too few contexts: " + stats);
  }

  /**
   * The label found by walking from "/" one component at a time, for an absolute path without
   * empty components; empty for any other path (relative, "/", doubled or trailing slashes).
   */
  static Optional<Label> walk(LabelMatcher matcher, byte[] path, FileType type, Map<String, DirectoryMatch> cache) {
    String text = PathBytes.latin1(path);
    if (text.length() < 2 || text.charAt(0) != '/') {
      return Optional.empty();
    }
    String[] components = text.substring(1).split("/", -1);
    for (String component : components) {
      if (component.isEmpty()) {
        return Optional.empty();
      }
    }
    DirectoryMatch directory = matcher.directory("/");
    StringBuilder at = new StringBuilder();
    for (int i = 0; i < components.length - 1; i++) {
      at.append('/').append(components[i]);
      DirectoryMatch parent = directory;
      String name = components[i];
      directory = cache == null ? parent.enter(PathBytes.fromLatin1(name))
          : cache.computeIfAbsent(at.toString(), k -> parent.enter(name));
    }
    return Optional.of(directory.lookup(PathBytes.fromLatin1(components[components.length - 1]), type));
  }

  /** The label found through {@code matcher.directory(parent).lookup(name)}. */
  private static Label viaParent(LabelMatcher matcher, byte[] path, FileType type) {
    String text = PathBytes.latin1(path);
    int slash = text.lastIndexOf('/');
    String parent = slash == 0 ? "/" : text.substring(0, slash);
    return matcher.directory(PathBytes.fromLatin1(parent)).lookup(PathBytes.fromLatin1(text.substring(slash + 1)), type);
  }

  /** Literal prefixes of the specs (cut at their last '/') and the aliases' ends. */
  private static Set<String> interestingPrefixes(Policy policy) {
    Set<String> prefixes = new LinkedHashSet<>();
    for (Spec spec : policy.specs()) {
      StringBuilder literal = new StringBuilder();
      String regex = spec.regex();
      for (int i = 0; i < regex.length(); i++) {
        char c = regex.charAt(i);
        if (".^$?*+|[({\\".indexOf(c) >= 0) {
          break;
        }
        literal.append(c);
      }
      int slash = literal.lastIndexOf("/");
      if (slash > 0) {
        prefixes.add(literal.substring(0, slash));
      }
      prefixes.add(literal.length() > 0 ? literal.toString() : "/");
    }
    for (List<PathAlias> aliases : List.of(policy.localAliases(), policy.distAliases())) {
      for (PathAlias alias : aliases) {
        prefixes.add(alias.alias());
        prefixes.add(alias.target());
      }
    }
    return prefixes;
  }

  private static void requireLibselinux() {
    if (!LibSelinux.available()) {
      String missing = "libselinux.so.1 is missing (apt-get install libselinux1)";
      if (Oracles.inCi()) {
        fail("CI=true and the reference is unavailable: " + missing);
      }
      Assumptions.abort(missing);
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
