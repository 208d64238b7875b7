package dev.relabel.walk;

import dev.relabel.context.CustomizableTypes;
import dev.relabel.context.LabelRules;
import dev.relabel.match.LabelMatcher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

/**
 * Relabels trees: walks each root with a work-stealing pool (one task per directory), decides
 * every entry's label with the matcher and {@code selinux_restorecon}'s rules, and writes
 * {@code security.selinux} where it differs.
 *
 * <p>Built once from immutable parts; {@link #run} may be called any number of times, also
 * concurrently. Interrupting the calling thread stops every worker within one entry each and
 * returns the partial report; every entry then has its old label or its new one.
 */
public final class Relabeler {
  private final LabelMatcher matcher;
  private final LabelRules rules;
  private final RelabelOptions options;
  private final FileTree tree;
  private final RelabelListener listener;

  public Relabeler(LabelMatcher matcher, Set<String> customizableTypes, RelabelOptions options, FileTree tree,
      RelabelListener listener) {
    this.matcher = matcher;
    this.rules = new LabelRules(options.force(), options.userRoleType(), customizableTypes);
    this.options = options;
    this.tree = tree;
    this.listener = listener;
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

  public RelabelOptions options() {
    return options;
  }

  /**
   * Relabels each root (a file, or a directory and, when recursing, everything beneath it), one
   * root after the other, each walked by all workers. Interrupting the calling thread ends the run
   * early: the report says {@code cancelled}, and the thread's interrupt status stays set.
   */
  public RelabelReport run(List<Path> roots) {
    long start = System.nanoTime();
    Walk walk = new Walk(matcher, rules, options, tree, listener);
    ForkJoinPool pool = new ForkJoinPool(options.workerCount());
    boolean interrupted = false;
    try {
      for (Path root : roots) {
        if (walk.cancelled()) {
          break;
        }
        byte[] path = PathBytes.absolute(root);
        walk.beginRoot();
        ForkJoinTask<Void> task = pool.submit(new RootTask(walk, path));
        try {
          task.get();
          walk.storeDigests(path);
        } catch (InterruptedException e) {
          interrupted = true;
          walk.cancel();
          break;
        } catch (ExecutionException e) {
          walk.fail(path, 0, "internal error: " + e.getCause());
        }
      }
    } finally {
      pool.shutdown();
      boolean drained = false;
      while (!drained) {
        try {
          drained = pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
          walk.cancel();
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return walk.report(Duration.ofNanos(System.nanoTime() - start));
  }
}
