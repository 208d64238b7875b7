package dev.relabel.bench;

import dev.relabel.fixtures.PathCorpus;
import dev.relabel.fixtures.oracle.LibSelinux;
import dev.relabel.match.DirectoryMatch;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Lookup throughput on this machine's real paths (everything under {@code /usr} and {@code /etc},
 * each with its lstat type), our matcher against the system's libselinux through JNA, in one run.
 *
 * <p>Every score is lookups per second: each invocation does a fixed batch of lookups and says so
 * with {@link OperationsPerInvocation}. Our matcher does {@value #OURS_BATCH} per invocation,
 * cycling through the corpus; libselinux 3.4 (about 400 times slower) does {@value
 * #LIBSELINUX_BATCH}, cycling through a fixed shuffle of the corpus so that whatever part of it a
 * run reaches is a uniform sample of the whole.
 *
 * <p>Each invocation returns a checksum of its answers (the context's hash, 0 for no context,
 * folded in order), which keeps the work alive and lets {@code LookupBenchmarkSanityTest} check
 * that a benchmark answers what libselinux answers.
 *
 * <p>The defaults ({@link Warmup}, {@link Measurement}, {@link Fork}) are for a quick run;
 * {@code benchmarks/run-lookup.sh} passes the settings the recorded figures were taken with.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m", "-Xms1g", "-Xmx1g"})
@Threads(1)
public class LookupBenchmark {
  /** Lookups per invocation of our matcher's benchmarks. */
  public static final int OURS_BATCH = 10_000;
  /** Lookups per invocation of libselinux's benchmark (about 0.4 s with Debian's 3.4). */
  public static final int LIBSELINUX_BATCH = 1_000;

  /** The corpus, its per-directory walk plan, and our compiled matcher; shared by all threads. */
  @State(Scope.Benchmark)
  public static class Corpus {
    /** The trees to walk, comma-separated. */
    @Param({"/usr,/etc"})
    public String roots;

    /** The policy to load, with its .homedirs, .local, .subs and .subs_dist beside it. */
    @Param({"/etc/selinux/default/contexts/files/file_contexts"})
    public String fileContexts;

    /** Each entry's path, in walk order. */
    byte[][] paths;
    /** Each entry's lstat {@code S_IFMT} bits, as libselinux is asked. */
    int[] modes;
    /** Each entry's type, as our matcher is asked. */
    FileType[] types;
    /** A fixed shuffle of the entry indexes, for libselinux's benchmark. */
    int[] shuffled;
    /** The corpus grouped by parent directory, for the directory walk. */
    WalkPlan plan;
    LabelMatcher matcher;

    @Setup(Level.Trial)
    public void setup() throws Exception {
      List<Path> rootPaths = new ArrayList<>();
      for (String root : roots.split(",")) {
        if (!root.isBlank()) {
          rootPaths.add(Path.of(root.strip()));
        }
      }
      List<PathCorpus.Entry> entries = PathCorpus.walk(rootPaths, Integer.MAX_VALUE);
      if (entries.isEmpty()) {
        throw new IllegalStateException("no paths under " + roots);
      }
      int n = entries.size();
      paths = new byte[n][];
      modes = new int[n];
      types = new FileType[n];
      for (int i = 0; i < n; i++) {
        paths[i] = entries.get(i).path();
        modes[i] = entries.get(i).modeBits();
        types[i] = FileType.fromMode(modes[i]);
      }
      shuffled = new int[n];
      Arrays.setAll(shuffled, i -> i);
      Random random = new Random(0x5e1abe1L);
      for (int i = n - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
      plan = WalkPlan.of(paths, types);
      matcher = LabelMatcher.compile(PolicyLoader.lenient().load(Path.of(fileContexts)));
      System.out.printf("%n[corpus] %d paths (%d directories) under %s; policy %s: %d specs%n",
          n, plan.directoryCount(), roots, fileContexts, matcher.policy().specs().size());
    }

    /** How many paths the corpus holds. */
    public int size() {
      return paths.length;
    }
  }

  /** The system's libselinux, opened on the same policy; only libselinux's benchmark opens it. */
  @State(Scope.Benchmark)
  public static class Reference {
    LibSelinux libselinux;

    @Setup(Level.Trial)
    public void setup(Corpus corpus) {
      libselinux = LibSelinux.open(Path.of(corpus.fileContexts));
    }

    @TearDown(Level.Trial)
    public void close() {
      if (libselinux != null) {
        libselinux.close();
        libselinux = null;
      }
    }
  }

  /** Where each thread is in the corpus; threads start at evenly spaced points. */
  @State(Scope.Thread)
  public static class Cursor {
    Corpus corpus;
    /** Next index into the corpus in walk order (plain lookups). */
    int next;
    /** Next index into {@link Corpus#shuffled} (libselinux). */
    int nextShuffled;
    /** The directory walker's place in the walk plan. */
    Walker walker;

    @Setup(Level.Trial)
    public void setup(Corpus corpus, ThreadParams thread) {
      init(corpus, thread.getThreadIndex(), thread.getThreadCount());
    }

    /** As JMH's setup, for thread {@code index} of {@code count}. */
    public void init(Corpus corpus, int index, int count) {
      this.corpus = corpus;
      next = (int) ((long) corpus.size() * index / count);
      nextShuffled = next;
      walker = new Walker(corpus.matcher, corpus.plan, corpus.plan.groupCount() * index / count);
    }

    /** Our plain lookups of the next {@code count} paths; the checksum of their answers. */
    long plainLookups(int count) {
      LabelMatcher matcher = corpus.matcher;
      byte[][] paths = corpus.paths;
      FileType[] types = corpus.types;
      int i = next;
      long checksum = 0;
      for (int done = 0; done < count; done++) {
        checksum = checksum * 31 + answer(matcher.lookup(paths[i], types[i]));
        if (++i == paths.length) {
          i = 0;
        }
      }
      next = i;
      return checksum;
    }

    /** libselinux's lookups of the next {@code count} paths of the shuffle; their checksum. */
    long libselinuxLookups(LibSelinux libselinux, int count) {
      byte[][] paths = corpus.paths;
      int[] modes = corpus.modes;
      int[] order = corpus.shuffled;
      int k = nextShuffled;
      long checksum = 0;
      for (int done = 0; done < count; done++) {
        int i = order[k];
        checksum = checksum * 31 + answer(libselinux.lookup(paths[i], modes[i]));
        if (++k == order.length) {
          k = 0;
        }
      }
      nextShuffled = k;
      return checksum;
    }
  }

  /** {@code LabelMatcher.lookup} on each path, one thread. */
  @Benchmark
  @OperationsPerInvocation(OURS_BATCH)
  public long oursPlainLookup(Cursor cursor) {
    return cursor.plainLookups(OURS_BATCH);
  }

  /** As {@link #oursPlainLookup}, on two threads sharing one matcher: the sum of both. */
  @Benchmark
  @Threads(2)
  @OperationsPerInvocation(OURS_BATCH)
  public long oursPlainLookupThreads2(Cursor cursor) {
    return cursor.plainLookups(OURS_BATCH);
  }

  /**
   * The corpus walked directory by directory, as a relabelling walker does: {@code enter()} once
   * per directory (counted here), then {@code DirectoryMatch.lookup(name)} for each of its entries.
   */
  @Benchmark
  @OperationsPerInvocation(OURS_BATCH)
  public long oursDirectoryWalk(Cursor cursor) {
    return cursor.walker.lookups(OURS_BATCH);
  }

  /** The system's libselinux ({@code selabel_lookup_raw} through JNA) on each path, one thread. */
  @Benchmark
  @OperationsPerInvocation(LIBSELINUX_BATCH)
  public long libselinux(Cursor cursor, Reference reference) {
    return cursor.libselinuxLookups(reference.libselinux, LIBSELINUX_BATCH);
  }

  /** What a checksum folds in for one answer of ours: the context's hash, 0 when there is none. */
  static int answer(Label label) {
    return label.kind() == Label.Kind.CONTEXT ? label.display().hashCode() : 0;
  }

  /** The same for libselinux, whose ENOENT covers both no match and {@code <<none>>}. */
  static int answer(Optional<String> context) {
    return context.isPresent() ? context.get().hashCode() : 0;
  }

  /**
   * The corpus grouped by parent directory, in the order a depth-first walker reaches them. Each
   * group is one directory: the walker enters it from its parent's state (so a group at depth
   * {@code d} enters from the state at depth {@code d - 1}) and looks up each of its entries by
   * name. A root's own entry (say {@code /usr}) is looked up in a group of its own at depth 0,
   * whose state is {@code matcher.directory(parent)}. Every corpus entry is looked up exactly once
   * per pass.
   */
  static final class WalkPlan {
    /** Per group: its depth (0: a root's parent, opened with {@code directory(path)}). */
    final int[] depth;
    /** Per group: the directory's name in its parent (depth > 0) or its full path (depth 0). */
    final byte[][] dir;
    /** Per group: where its entries start in {@link #names}; group g's are [start[g], start[g+1]). */
    final int[] start;
    /** Per lookup slot: the entry's name in its directory. */
    final byte[][] names;
    /** Per lookup slot: the entry's type. */
    final FileType[] types;
    /** Per lookup slot: the entry's index in the corpus. */
    final int[] entry;
    final int maxDepth;

    private WalkPlan(int[] depth, byte[][] dir, int[] start, byte[][] names, FileType[] types, int[] entry) {
      this.depth = depth;
      this.dir = dir;
      this.start = start;
      this.names = names;
      this.types = types;
      this.entry = entry;
      this.maxDepth = Arrays.stream(depth).max().orElse(0);
    }

    static WalkPlan of(byte[][] paths, FileType[] types) {
      // Groups in the order their directory is first seen; the corpus is in depth-first walk order,
      // so a directory's group comes after its parent's and before any of its descendants'.
      List<Integer> groupDepth = new ArrayList<>();
      List<byte[]> groupDir = new ArrayList<>();
      List<List<Integer>> members = new ArrayList<>();
      Map<String, Integer> groupOfDirectory = new HashMap<>();
      for (int i = 0; i < paths.length; i++) {
        String path = latin1(paths[i]);
        int slash = path.lastIndexOf('/');
        String parent = slash <= 0 ? "/" : path.substring(0, slash);
        Integer group = groupOfDirectory.get(parent);
        if (group == null) {
          // A root: its parent is not in the corpus. Give it a depth-0 group of its own.
          group = groupDepth.size();
          groupDepth.add(0);
          groupDir.add(parent.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
          members.add(new ArrayList<>());
        }
        members.get(group).add(i);
        if (types[i] == FileType.DIRECTORY && !path.equals("/")) {
          int own = groupDepth.size();
          groupDepth.add(groupDepth.get(group) + 1);
          groupDir.add(path.substring(slash + 1).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
          members.add(new ArrayList<>());
          groupOfDirectory.put(path, own);
        }
      }
      int groups = groupDepth.size();
      int[] depth = new int[groups];
      byte[][] dir = new byte[groups][];
      int[] start = new int[groups + 1];
      byte[][] names = new byte[paths.length][];
      FileType[] slotTypes = new FileType[paths.length];
      int[] entry = new int[paths.length];
      int slot = 0;
      for (int g = 0; g < groups; g++) {
        depth[g] = groupDepth.get(g);
        dir[g] = groupDir.get(g);
        start[g] = slot;
        for (int i : members.get(g)) {
          String path = latin1(paths[i]);
          names[slot] = path.substring(path.lastIndexOf('/') + 1).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
          slotTypes[slot] = types[i];
          entry[slot] = i;
          slot++;
        }
      }
      start[groups] = slot;
      return new WalkPlan(depth, dir, start, names, slotTypes, entry);
    }

    int groupCount() {
      return depth.length;
    }

    /** Directories entered per pass (groups at depth > 0). */
    int directoryCount() {
      int count = 0;
      for (int d : depth) {
        count += d > 0 ? 1 : 0;
      }
      return count;
    }

    /** Lookups per pass: the corpus size. */
    int slotCount() {
      return names.length;
    }

    private static String latin1(byte[] bytes) {
      return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * A depth-first walker over a {@link WalkPlan} that can stop after any number of lookups and go
   * on from there, wrapping round at the end. It keeps one {@link DirectoryMatch} per depth, as a
   * recursive walker does.
   */
  static final class Walker {
    private final LabelMatcher matcher;
    private final WalkPlan plan;
    private final DirectoryMatch[] stack;
    /** The group being walked, and the next slot in it. */
    private int group;
    private int slot;
    /** The state of {@code group}'s directory; null until it is entered. */
    private DirectoryMatch current;
    /** Directories entered so far (including depth-0 opens), for the sanity test. */
    long entered;

    Walker(LabelMatcher matcher, WalkPlan plan, int firstGroup) {
      this.matcher = matcher;
      this.plan = plan;
      this.stack = new DirectoryMatch[plan.maxDepth + 1];
      // Starting anywhere but a depth-0 group would need the ancestors' states: back up to one.
      int g = Math.min(firstGroup, plan.groupCount() - 1);
      while (g > 0 && plan.depth[g] != 0) {
        g--;
      }
      this.group = g;
      this.slot = plan.start[g];
    }

    /** The next slot this walker will look up. */
    int nextSlot() {
      return slot;
    }

    /**
     * Looks up the next {@code count} entries; the checksum of their answers. A directory is
     * entered when the walk first reaches it; empty directories are entered as soon as the walk
     * passes them, so the walker always rests on a directory with entries left.
     */
    long lookups(int count) {
      WalkPlan plan = this.plan;
      byte[][] names = plan.names;
      FileType[] types = plan.types;
      int[] start = plan.start;
      int g = group;
      int s = slot;
      DirectoryMatch state = current;
      long checksum = 0;
      int done = 0;
      while (done < count) {
        if (state == null) {
          state = enter(g);
        }
        int end = start[g + 1];
        int stop = Math.min(end, s + (count - done));
        done += stop - s;
        for (; s < stop; s++) {
          checksum = checksum * 31 + answer(state.lookup(names[s], types[s]));
        }
        if (s == end) {
          state = null;
          g = following(g);
          while (start[g] == start[g + 1]) {
            enter(g);
            g = following(g);
          }
          s = start[g];
        }
      }
      group = g;
      slot = s;
      current = state;
      return checksum;
    }

    private DirectoryMatch enter(int g) {
      int d = plan.depth[g];
      DirectoryMatch state = d == 0 ? matcher.directory(plan.dir[g]) : stack[d - 1].enter(plan.dir[g]);
      stack[d] = state;
      entered++;
      return state;
    }

    private int following(int g) {
      return g + 1 == plan.groupCount() ? 0 : g + 1;
    }
  }
}
