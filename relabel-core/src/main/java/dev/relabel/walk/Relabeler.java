package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import dev.relabel.report.RelabelReport;
import dev.relabel.report.RelabelListener;
import dev.relabel.context.CustomizableTypes;
import dev.relabel.context.LabelRules;
import dev.relabel.match.LabelMatcher;
import dev.relabel.match.PolicyDiff;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Relabels trees: walks each root with a work-stealing pool (one task per directory), decides
 * every entry's label with the matcher and {@code selinux_restorecon}'s rules, and writes
 * {@code security.selinux} where it differs.
 *
 * <p>Built once from immutable parts; {@link #run} may be called any number of times, also
 * concurrently, on the same worker pool. Interrupting the calling thread stops every worker within one entry each and
 * returns the partial report; every entry then has its old label or its new one.
 */
public final class Relabeler implements AutoCloseable {
  private final LabelMatcher matcher;
  /** With {@link #changedSince}: the previous policy against this one; null otherwise. */
  private final PolicyDiff diff;
  private final Set<String> customizableTypes;
  private final LabelRules rules;
  private final RelabelOptions options;
  private final FileTree tree;
  private final RelabelListener listener;
  /** What no run labels or enters (see {@link Walk#excludes}). */
  private final Exclusions excludes;
  /**
   * The workers, shared by every run: a caller that labels many roots one run each (setfiles with
   * a long {@code -f} list) pays for starting threads once. Made when a root first has something
   * beneath it to walk ({@link #workers}), so that a run of files alone (restorecon of one path)
   * never starts the pool's machinery; its threads start on first use. Null until then.
   */
  private ForkJoinPool pool;

  public Relabeler(LabelMatcher matcher, Set<String> customizableTypes, RelabelOptions options, FileTree tree,
      RelabelListener listener) {
    this(matcher, null, customizableTypes, options, tree, listener);
  }

  private Relabeler(LabelMatcher matcher, PolicyDiff diff, Set<String> customizableTypes, RelabelOptions options,
      FileTree tree, RelabelListener listener) {
    this.matcher = matcher;
    this.diff = diff;
    this.customizableTypes = Set.copyOf(customizableTypes);
    this.rules = new LabelRules(options.force(), options.userRoleType(), customizableTypes);
    this.options = options;
    this.tree = tree;
    this.listener = listener;
    this.excludes = Walk.excludes(options);
  }

  /**
   * A relabeler on the real filesystem, keeping the customizable types listed beside the
   * matcher's policy ({@code contexts/customizable_types}).
   */
  public static Relabeler onDisk(LabelMatcher matcher, RelabelOptions options, RelabelListener listener)
      throws IOException {
    Set<String> customizable = CustomizableTypes.forFileContexts(matcher.policy().baseFile());
    return new Relabeler(matcher, customizable, options, new NativeFileTree(), listener);
  }

  /**
   * A relabeler that handles only the entries {@code previous} (the policy before an update)
   * labels otherwise than this relabeler's policy, and never reads a directory beneath which no
   * entry can be labelled otherwise ({@code fixfiles -C}). The rules and options are this one's.
   */
  public Relabeler changedSince(LabelMatcher previous) {
    return new Relabeler(matcher, PolicyDiff.between(previous, matcher), customizableTypes, options, tree, listener);
  }

  public RelabelOptions options() {
    return options;
  }

  /**
   * Relabels each root (a file, or a directory and, when recursing, everything beneath it), one
   * root after the other, each walked by all workers. Interrupting the calling thread ends the run
   * early: the report says {@code cancelled}, and the thread's interrupt status stays set.
   */
  public RelabelReport run(List<Path> roots) {
    List<byte[]> absolute = new ArrayList<>(roots.size());
    for (Path root : roots) {
      absolute.add(PathBytes.absolute(root));
    }
    return runAbsolute(absolute);
  }

  /**
   * {@link #run}, each root given as the bytes of its absolute, normalized path ({@link
   * PathBytes#absolute(byte[])}): a command line's names that the JDK cannot hold in a {@link Path}
   * (bytes the locale cannot decode) are walked as they are.
   */
  public RelabelReport runAbsolute(List<byte[]> roots) {
    long start = System.nanoTime();
    Walk walk = new Walk(matcher, diff, rules, options, tree, listener, excludes);
    boolean interrupted = false;
    for (byte[] path : roots) {
      if (walk.cancelled()) {
        break;
      }
      walk.beginRoot();
      RootTask task = new RootTask(walk, this, path);
      try {
        // The root entry on this thread (see RootTask); what lies beneath it in the pool.
        task.compute();
        // A root with nothing beneath it (a file) is done here, on this thread; get() would start
        // the common pool's machinery (ForkJoinPool's class) only to return.
        if (!task.isCompletedNormally()) {
          task.get();
        }
        walk.throwIfStopped();
        walk.labelMultiLinked(path);
        walk.storeDigests(path);
      } catch (InterruptedException e) {
        interrupted = true;
        walk.cancel();
        // Every worker stops within one entry; none may still write once the report is out.
        task.quietlyJoin();
        break;
      } catch (ExecutionException | RuntimeException | Error e) {
        // A task died (an Error: internal failures are caught per entry). Its siblings may still
        // run: stop them and wait for the pool to go quiet.
        walk.cancel();
        walk.fail(path, 0, "internal error: " + (e instanceof ExecutionException x ? x.getCause() : e));
        ForkJoinPool started = startedWorkers();
        if (started != null) {
          started.awaitQuiescence(1, TimeUnit.MINUTES);
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return walk.report(Duration.ofNanos(System.nanoTime() - start));
  }

  /**
   * Stops the worker threads once they are idle. Optional: they are daemon threads, and idle ones
   * end by themselves after a while.
   */
  @Override
  public void close() {
    ForkJoinPool started = startedWorkers();
    if (started != null) {
      started.shutdown();
    }
  }

  /** The workers, made on the first call. */
  synchronized ForkJoinPool workers() {
    if (pool == null) {
      pool = new ForkJoinPool(options.workerCount(), WalkWorker.FACTORY, null, false);
    }
    return pool;
  }

  /** The workers if a walk made them; null otherwise. */
  private synchronized ForkJoinPool startedWorkers() {
    return pool;
  }
}
