package dev.relabel.bench;

import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.Policy;
import dev.relabel.policy.PolicyLoader;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to load a policy ({@code PolicyLoader.lenient().load}: read and parse {@code file_contexts}
 * and the files beside it) and compile it ({@code LabelMatcher.compile}), warm: the JIT has seen
 * several loads first. The goal is at most 150 ms for {@link #loadAndCompile} on Debian's policy.
 * {@link #load} and {@link #compile} split it, to show where the time goes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m", "-Xms1g", "-Xmx1g"})
@Threads(1)
@State(Scope.Benchmark)
public class CompileBenchmark {
  /** The policy to load, with its .homedirs, .local, .subs and .subs_dist beside it. */
  @Param({"/etc/selinux/default/contexts/files/file_contexts"})
  public String fileContexts;

  Path file;
  /** A policy loaded once, for {@link #compile}. */
  Policy loaded;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    file = Path.of(fileContexts);
    loaded = PolicyLoader.lenient().load(file);
  }

  /** Load and compile: what a relabel run pays before its first lookup. */
  @Benchmark
  public LabelMatcher loadAndCompile() throws Exception {
    return LabelMatcher.compile(PolicyLoader.lenient().load(file));
  }

  /** Load (read and parse) only. */
  @Benchmark
  public Policy load() throws Exception {
    return PolicyLoader.lenient().load(file);
  }

  /** Compile an already loaded policy only. */
  @Benchmark
  public LabelMatcher compile() {
    return LabelMatcher.compile(loaded);
  }
}
