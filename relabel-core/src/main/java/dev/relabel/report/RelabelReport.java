package dev.relabel.report;

import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Spec;
import java.time.Duration;
import java.util.List;

/**
 * What a run did: counts merged from every worker, and each failure with its path and errno.
 *
 * @param visited entries whose label was decided
 * @param relabeled entries whose label changed (or would, in a dry run)
 * @param unmatched entries no spec matched, or whose spec says {@code <<none>>}
 * @param failures every entry that could not be handled
 * @param cancelled whether the run was interrupted before it finished
 * @param unusedSpecs with {@link RelabelOptions#reportUnusedSpecs}, the specs that decided no
 *     entry, in libselinux's order ({@code setfiles -W}); otherwise empty
 */
public record RelabelReport(long visited, long relabeled, long unmatched, List<Failure> failures, boolean cancelled,
    Duration elapsed, List<Spec> unusedSpecs) {
  public RelabelReport {
    failures = List.copyOf(failures);
    unusedSpecs = List.copyOf(unusedSpecs);
  }

  /** One label change. */
  public record Change(byte[] path, String from, String to, boolean applied) {
    /** The path as text for messages: it prints as its own bytes (see {@link PathBytes#charset()}). */
    public String pathText() {
      return PathBytes.text(path);
    }
  }

  /**
   * A {@link Failure}'s message for a directory that is a directory cycle (fts's FTS_DC: a bind
   * mount of a directory the walk is inside), which is neither labelled nor entered.
   */
  public static final String DIRECTORY_CYCLE = "directory cycle";

  /**
   * One entry that could not be handled.
   *
   * @param errno the errno, or 0 when the failure is not a system call's
   */
  public record Failure(byte[] path, int errno, String message) {
    /** The path as text for messages: it prints as its own bytes (see {@link PathBytes#charset()}). */
    public String pathText() {
      return PathBytes.text(path);
    }
  }

  /** The entries the policy gives a context: those progress counts, as setfiles -p does. */
  public long labelled() {
    return visited - unmatched;
  }

  /** Whether every entry was handled. */
  public boolean succeeded() {
    return failures.isEmpty() && !cancelled;
  }
}
