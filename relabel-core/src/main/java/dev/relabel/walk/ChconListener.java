package dev.relabel.walk;

import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
/**
 * Receives what a {@link ContextChanger} run does, from the worker threads, as it happens; must
 * be thread-safe. {@link RelabelListener#changed} reports each label written.
 */
public interface ChconListener extends RelabelListener {
  /**
   * With {@link ChconOptions#announceEach}: {@code path} is about to be handled (chcon
   * {@code -v}'s "changing security context of PATH", which it prints whether the label changes or not).
   */
  default void announced(byte[] path) {}

  /** An entry could not be handled; the walk goes on. By default passed on as a plain failure. */
  default void failed(ChconProblem problem) {
    failed(problem.failure());
  }

  /** A listener that ignores everything. */
  ChconListener NONE = new ChconListener() {};

  /** {@code listener} for what a chcon run adds, as a plain relabel listener otherwise. */
  static ChconListener of(RelabelListener listener) {
    return new ChconListener() {
      @Override
      public void changed(RelabelReport.Change change) {
        listener.changed(change);
      }

      @Override
      public void failed(RelabelReport.Failure failure) {
        listener.failed(failure);
      }

      @Override
      public void progress(long entries) {
        listener.progress(entries);
      }
    };
  }
}
