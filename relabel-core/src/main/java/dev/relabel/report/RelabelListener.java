package dev.relabel.report;

import dev.relabel.policy.PathBytes;

/**
 * Receives what a run does, from the worker threads, as it happens. Implementations must be
 * thread-safe; the walker calls them only for changes and errors, never once per unchanged file.
 */
public interface RelabelListener {
  /** A label was (or, in a dry run, would be) changed. {@code from} is null for an unlabeled entry. */
  default void changed(RelabelReport.Change change) {}

  /**
   * With {@link RelabelOptions#logMatches}: the context the policy gives {@code path}, before the
   * rules decide what to write ({@code setfiles -d}'s "PATH matched by CONTEXT").
   */
  default void matched(byte[] path, String context) {}

  /**
   * With {@code RelabelOptions.withChangedAfter}: an entry modified since then that no spec labels
   * (or labels {@code <<none>>}). fixfiles hands each such entry to restorecon as a path of its
   * own, and restorecon says "Warning no default label for KEY" of a path it is given.
   *
   * @param key the path the policy was asked about (below the alternate root, if any)
   */
  default void noDefaultLabel(byte[] key) {}

  /** An entry could not be handled; the walk goes on. */
  default void failed(RelabelReport.Failure failure) {}

  /**
   * Progress: a worker has found the context of {@code entries} more entries since its last tick
   * (entries no spec labels are not counted, as setfiles -p does not count them). Each worker
   * ticks on its own every {@value Walk#TICK} entries, so the listener sums ticks (a
   * {@code LongAdder} keeps that uncontended); the final count is the report's
   * {@link RelabelReport#labelled()}.
   */
  default void progress(long entries) {}

  /**
   * With directory digests: the directory {@code path} was skipped, itself and everything beneath,
   * because its stored digest says the policy labels it as when it was last labelled.
   */
  default void skippedUnchanged(byte[] path) {}

  /**
   * An entry whose customizable type was kept ({@code PATH not reset as customized by admin to
   * CONTEXT}). The path is bytes, as a name may not be text; by default it becomes a
   * {@link #warned} notice with the path decoded as UTF-8.
   */
  default void keptCustomized(byte[] path, String context) {
    warned(PathBytes.text(path) + " not reset as customized by admin to " + context);
  }

  /**
   * Names of one inode that the policy labels differently: {@code other} gets {@code context}, the
   * label of the inode's deciding name; {@code previous} is the name reported before it, the
   * deciding one for the first ({@link LinkConflicts}). By default a {@link #warned} notice as
   * setfiles words it, the paths decoded as UTF-8.
   */
  default void conflicted(byte[] other, byte[] previous, String context) {
    warned(conflict(other, previous, context));
  }

  /** What {@link #conflicted} says by default, in setfiles' words. */
  static String conflict(byte[] other, byte[] previous, String context) {
    return "conflicting specifications for " + PathBytes.text(other) + " and " + PathBytes.text(previous) + ", using " + context + ".";
  }

  /** A notice that is not a failure (a digest that could not be stored, ...). */
  default void warned(String message) {}

  /** A listener that ignores everything. */
  RelabelListener NONE = new RelabelListener() {};
}
