package dev.relabel.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.relabel.fixtures.AttrTrees;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.fixtures.oracle.Oracles;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * Each benchmark's setup and one invocation, checked against libselinux, so that a broken
 * benchmark fails here instead of reporting a figure. The states are set up with the same
 * {@link Param} defaults a JMH run uses.
 *
 * <p>A benchmark invocation returns a checksum of its answers in order. The test computes the same
 * checksum from {@code LabelMatcher.lookup} on the same paths (which proves the benchmark looked up
 * the paths it should, with their types, as many as it claims, and got the plain lookup's
 * answers), and compares those plain answers with libselinux's on a sample of the paths.
 * libselinux's own benchmark is compared with our answers on its whole batch.
 */
class LookupBenchmarkSanityTest {
  /** How many of a batch's paths are also asked of libselinux (about 0.4 ms each). */
  private static final int SAMPLE = 1_000;

  private static LookupBenchmark.Corpus corpus;
  private static LibSelinux reference;
  private final LookupBenchmark benchmark = new LookupBenchmark();

  @BeforeAll
  static void setUp() throws Exception {
    String missing = Oracles.missing();
    if (missing != null) {
      AttrTrees.unavailable(missing); // fails when CI=true
    }
    corpus = new LookupBenchmark.Corpus();
    corpus.roots = defaultParam(LookupBenchmark.Corpus.class, "roots");
    corpus.fileContexts = defaultParam(LookupBenchmark.Corpus.class, "fileContexts");
    assertEquals(Oracles.DEBIAN_FILE_CONTEXTS.toString(), corpus.fileContexts,
        "the benchmark must measure Debian's policy");
    corpus.setup();
    reference = LibSelinux.open(Oracles.DEBIAN_FILE_CONTEXTS);
  }

  @AfterAll
  static void tearDown() {
    if (reference != null) {
      reference.close();
    }
  }

  static String defaultParam(Class<?> state, String field) throws NoSuchFieldException {
    String[] values = state.getField(field).getAnnotation(Param.class).value();
    assertEquals(1, values.length, field + " should have one default");
    return values[0];
  }

  @Test
  void corpusIsEveryRealPathUnderUsrAndEtc() {
    assertEquals("/usr,/etc", corpus.roots);
    int n = corpus.size();
    assertTrue(n >= 20_000, "corpus too small: " + n);
    int directories = 0;
    for (int i = 0; i < n; i++) {
      String path = text(corpus.paths[i]);
      assertTrue(path.equals("/usr") || path.startsWith("/usr/") || path.equals("/etc") || path.startsWith("/etc/"),
          path);
      assertEquals(corpus.modes[i], corpus.types[i].modeBits(), path);
      directories += corpus.modes[i] == 0040000 ? 1 : 0;
    }
    assertTrue(directories > 0 && directories < n, "directories: " + directories);
    assertIsPermutation(corpus.shuffled, n);
    assertTrue(corpus.matcher.policy().specs().size() >= 5_000, "Debian's policy has over 5,000 specs");
  }

  @Test
  void plainLookupAnswersAsLibselinux() {
    LookupBenchmark.Cursor cursor = cursor(0, 1);
    int first = cursor.next;
    long checksum = benchmark.oursPlainLookup(cursor);
    int[] batch = cycle(identity(corpus.size()), first, LookupBenchmark.OURS_BATCH);
    assertEquals(plainChecksum(batch), checksum, "oursPlainLookup's answers differ from LabelMatcher.lookup's");
    assertEquals((first + LookupBenchmark.OURS_BATCH) % corpus.size(), cursor.next, "batch size");
    assertAgreesWithLibselinux(batch);
  }

  @Test
  void twoThreadsShareOneMatcherAndAnswerAsOne() throws Exception {
    List<CompletableFuture<long[]>> threads = new ArrayList<>();
    for (int index = 0; index < 2; index++) {
      LookupBenchmark.Cursor cursor = cursor(index, 2);
      int first = cursor.next;
      threads.add(CompletableFuture.supplyAsync(() -> new long[] {first, benchmark.oursPlainLookupThreads2(cursor)}));
    }
    int[] firsts = new int[2];
    for (int index = 0; index < 2; index++) {
      long[] result = threads.get(index).get();
      firsts[index] = (int) result[0];
      int[] batch = cycle(identity(corpus.size()), firsts[index], LookupBenchmark.OURS_BATCH);
      assertEquals(plainChecksum(batch), result[1], "thread " + index + " of oursPlainLookupThreads2");
    }
    assertTrue(firsts[0] != firsts[1], "both threads start at the same place");
  }

  @Test
  void directoryWalkPlanCoversTheCorpusOnceThroughItsParents() {
    LookupBenchmark.WalkPlan plan = corpus.plan;
    assertEquals(corpus.size(), plan.slotCount());
    assertIsPermutation(plan.entry, corpus.size());
    // Rebuild each directory's path as the walker's enter() chain does, and check every slot's
    // entry is that directory's child of that name.
    String[] pathAt = new String[plan.maxDepth + 1];
    for (int g = 0; g < plan.groupCount(); g++) {
      int d = plan.depth[g];
      String dir = text(plan.dir[g]);
      pathAt[d] = d == 0 ? dir : (pathAt[d - 1].equals("/") ? "" : pathAt[d - 1]) + "/" + dir;
      String prefix = pathAt[d].equals("/") ? "/" : pathAt[d] + "/";
      for (int s = plan.start[g]; s < plan.start[g + 1]; s++) {
        assertEquals(text(corpus.paths[plan.entry[s]]), prefix + text(plan.names[s]), "slot " + s + " of group " + g);
        assertEquals(corpus.types[plan.entry[s]], plan.types[s]);
      }
    }
  }

  @Test
  void directoryWalkAnswersAsLibselinux() {
    LookupBenchmark.Cursor cursor = cursor(0, 1);
    int first = cursor.walker.nextSlot();
    long checksum = benchmark.oursDirectoryWalk(cursor);
    int[] batch = cycle(corpus.plan.entry, first, LookupBenchmark.OURS_BATCH);
    long expected = plainChecksum(batch);
    if (checksum != expected) {
      fail("oursDirectoryWalk's answers differ from LabelMatcher.lookup's: " + firstWalkDifference(first));
    }
    assertEquals((first + LookupBenchmark.OURS_BATCH) % corpus.size(), cursor.walker.nextSlot(), "batch size");
    assertAgreesWithLibselinux(batch);
  }

  @Test
  void directoryWalkEntersEachDirectoryOncePerPassAndWrapsRound() {
    LookupBenchmark.Walker walker = new LookupBenchmark.Walker(corpus.matcher, corpus.plan, 0);
    int n = corpus.size();
    long checksum = 0;
    int done = 0;
    while (done < n) {
      int step = Math.min(LookupBenchmark.OURS_BATCH, n - done);
      long part = walker.lookups(step);
      // Folding batches: c(a ++ b) = c(a) * 31^|b| + c(b).
      checksum = checksum * pow31(step) + part;
      done += step;
    }
    assertEquals(plainChecksum(corpus.plan.entry), checksum, "a whole pass in batches");
    // Every directory once, and each root's parent once (directory(), the walk's starting points).
    assertEquals(corpus.plan.groupCount(), walker.entered, "enter() once per directory");
    assertEquals(0, walker.nextSlot(), "after a pass the walker starts again");
    int[] again = Arrays.copyOf(corpus.plan.entry, 100);
    assertEquals(plainChecksum(again), walker.lookups(100), "the second pass");
  }

  @Test
  void libselinuxBenchmarkAnswersAsOurMatcher() {
    LookupBenchmark.Reference state = new LookupBenchmark.Reference();
    state.setup(corpus);
    try {
      LookupBenchmark.Cursor cursor = cursor(0, 1);
      int first = cursor.nextShuffled;
      long checksum = benchmark.libselinux(cursor, state);
      int[] batch = cycle(corpus.shuffled, first, LookupBenchmark.LIBSELINUX_BATCH);
      if (checksum != plainChecksum(batch)) {
        assertAgreesWithLibselinux(batch);
        fail("libselinux's benchmark answers differ from our matcher's on its batch, though the two agree when"
            + " libselinux is asked here with each path's type: the benchmark asks libselinux the wrong question");
      }
      assertEquals((first + LookupBenchmark.LIBSELINUX_BATCH) % corpus.size(), cursor.nextShuffled, "batch size");
    } finally {
      state.close();
    }
  }

  @Test
  void compileBenchmarkBuildsAMatcherThatAnswersAsLibselinux() throws Exception {
    CompileBenchmark compile = new CompileBenchmark();
    compile.fileContexts = defaultParam(CompileBenchmark.class, "fileContexts");
    assertEquals(Oracles.DEBIAN_FILE_CONTEXTS.toString(), compile.fileContexts);
    compile.setup();
    assertEquals(corpus.matcher.policy().specs(), compile.load().specs());
    assertEquals(corpus.matcher.policy().specs(), compile.compile().policy().specs());
    LabelMatcher matcher = compile.loadAndCompile();
    List<String> disagreements = new ArrayList<>();
    int[] sample = sample(corpus.shuffled, 200);
    for (int i : sample) {
      Optional<String> expected = reference.lookup(corpus.paths[i], corpus.modes[i]);
      Label actual = matcher.lookup(corpus.paths[i], corpus.types[i]);
      if (!expected.equals(actual.context())) {
        disagreements.add(describe(i, expected, actual));
      }
    }
    assertEquals(List.of(), disagreements);
  }

  private static LookupBenchmark.Cursor cursor(int index, int count) {
    LookupBenchmark.Cursor cursor = new LookupBenchmark.Cursor();
    cursor.init(corpus, index, count);
    return cursor;
  }

  /** The checksum the benchmarks fold, from plain lookups of these corpus entries. */
  private static long plainChecksum(int[] entries) {
    long checksum = 0;
    for (int i : entries) {
      checksum = checksum * 31 + LookupBenchmark.answer(corpus.matcher.lookup(corpus.paths[i], corpus.types[i]));
    }
    return checksum;
  }

  /** Our answers against libselinux's on {@value #SAMPLE} of these entries, spread evenly. */
  private static void assertAgreesWithLibselinux(int[] entries) {
    List<String> disagreements = new ArrayList<>();
    int[] sample = sample(entries, SAMPLE);
    for (int i : sample) {
      Optional<String> expected = reference.lookup(corpus.paths[i], corpus.modes[i]);
      Label actual = corpus.matcher.lookup(corpus.paths[i], corpus.types[i]);
      if (!expected.equals(actual.context())) {
        disagreements.add(describe(i, expected, actual));
      }
    }
    assertEquals(List.of(), disagreements.subList(0, Math.min(20, disagreements.size())),
        disagreements.size() + " of " + sample.length + " sampled lookups disagree with libselinux");
  }

  /** Where a fresh walker, stepped one lookup at a time, first differs from plain lookups. */
  private static String firstWalkDifference(int firstSlot) {
    LookupBenchmark.Walker walker = new LookupBenchmark.Walker(corpus.matcher, corpus.plan, 0);
    int n = corpus.size();
    for (int step = 0; step < n; step++) {
      int slot = walker.nextSlot();
      int i = corpus.plan.entry[slot];
      long got = walker.lookups(1);
      long expected = LookupBenchmark.answer(corpus.matcher.lookup(corpus.paths[i], corpus.types[i]));
      if (got != expected) {
        return "slot " + slot + " (" + text(corpus.paths[i]) + ", " + corpus.types[i] + ")";
      }
    }
    return "no single-step difference (the batch from slot " + firstSlot + " folds wrongly)";
  }

  private static String describe(int i, Optional<String> expected, Label actual) {
    return text(corpus.paths[i]) + " mode " + Integer.toOctalString(corpus.modes[i]) + ": libselinux "
        + expected.orElse("ENOENT") + ", ours " + actual;
  }

  private static int[] identity(int n) {
    int[] order = new int[n];
    Arrays.setAll(order, i -> i);
    return order;
  }

  /** {@code count} items of {@code order} from {@code first}, wrapping round. */
  private static int[] cycle(int[] order, int first, int count) {
    int[] out = new int[count];
    for (int k = 0; k < count; k++) {
      out[k] = order[(first + k) % order.length];
    }
    return out;
  }

  private static int[] sample(int[] entries, int count) {
    int size = Math.min(count, entries.length);
    int[] out = new int[size];
    for (int k = 0; k < size; k++) {
      out[k] = entries[(int) ((long) k * entries.length / size)];
    }
    return out;
  }

  private static void assertIsPermutation(int[] values, int n) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    assertArrayEquals(identity(n), sorted, "not a permutation of the corpus");
  }

  private static long pow31(int exponent) {
    long result = 1;
    for (int i = 0; i < exponent; i++) {
      result *= 31;
    }
    return result;
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
