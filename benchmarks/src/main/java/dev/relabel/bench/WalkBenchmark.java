package dev.relabel.bench;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.context.CustomizableTypes;
import dev.relabel.match.DirectoryMatch;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.walk.FileTree;
import dev.relabel.report.RelabelListener;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.report.RelabelReport;
import dev.relabel.walk.Relabeler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine's walk over an in-memory tree ({@link MemoryFileTree}: no system calls), every label
 * already right (a check): what the walker itself costs per entry (work-stealing tasks, per-entry
 * rules, label compare) and how that scales from 1 to 2 workers, without the kernel's share.
 * {@link #serialLookups} is the floor: the same lookups in a plain recursive loop, one thread, no
 * engine. Time per walk of the whole tree; divide by the tree's size for a per-entry cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m", "-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class WalkBenchmark {
  @Param({"/etc/selinux/default/contexts/files/file_contexts"})
  public String fileContexts;

  /** Entries of the generated tree (the same generator as relabel-bench scaling --generate). */
  @Param({"100000"})
  public int size;

  @Param({"1", "2"})
  public int threads;

  MemoryFileTree tree;
  LabelMatcher matcher;
  Relabeler relabeler;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    Path policy = Path.of(fileContexts);
    matcher = LabelMatcher.compile(PolicyLoader.lenient().load(policy));
    tree = MemoryFileTree.of(TreeGenerator.plan(size, 1));
    Set<String> customizable = CustomizableTypes.forFileContexts(policy);
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads).withCheckSeclabel(false);
    // Label every entry right once (-F), so that each measured walk is a check that writes nothing.
    RelabelReport labelled = new Relabeler(matcher, customizable, options.withForce(true), tree, RelabelListener.NONE)
        .run(List.of(Path.of("/")));
    if (!labelled.succeeded()) {
      throw new IllegalStateException("labelling the memory tree failed: " + labelled.failures());
    }
    relabeler = new Relabeler(matcher, customizable, options, tree, RelabelListener.NONE);
  }

  /** A whole check of the tree by the engine with {@code threads} workers. */
  @Benchmark
  public RelabelReport relabelerCheck() {
    return relabeler.run(List.of(Path.of("/")));
  }

  /** The same lookups without the engine: a recursive loop, one thread (threads is ignored). */
  @Benchmark
  public long serialLookups() throws IOException {
    try (FileTree.Directory root = tree.open(new byte[] {'/'})) {
      return walk(root, matcher.directory("/"));
    }
  }

  private long walk(FileTree.Directory directory, DirectoryMatch match) throws IOException {
    long sum = 0;
    for (FileTree.Entry entry : directory.entries()) {
      String name = new String(entry.name(), StandardCharsets.ISO_8859_1);
      Label label = match.lookup(name, entry.type());
      sum += label.kind().ordinal();
      if (entry.type() == FileType.DIRECTORY) {
        try (FileTree.Directory child = directory.openChild(entry.name(), entry.name())) {
          sum += walk(child, match.enter(name));
        }
      }
    }
    return sum;
  }
}
