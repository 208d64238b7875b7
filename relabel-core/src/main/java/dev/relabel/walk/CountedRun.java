package dev.relabel.walk;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A run that counts per thread, without a lock, and adds the counts up once at its end: each
 * thread finds its own counters, a {@link WalkWorker} in a field of its own, any other thread
 * (the caller's, which labels a root itself) through a {@code ThreadLocal}.
 *
 * @param <C> the counters
 */
abstract class CountedRun<C> {
  /**
   * Whether a {@link WalkWorker} was ever made: until then {@link #counters} skips the type test,
   * so that a run without a worker pool (one file) loads no worker class. Only a hint, so not
   * volatile: a thread that sees it late uses the {@code ThreadLocal}, and a worker sees it set
   * (Thread.start).
   */
  static boolean workersMade;

  /** Every thread's counters, for the report. */
  private final Queue<C> allCounters = new ConcurrentLinkedQueue<>();
  // A class, not a lambda: each lambda is a call site linked at the first walk of every run,
  // about a millisecond at a start.
  private final ThreadLocal<C> callerCounters = new ThreadLocal<>() {
    @Override
    protected C initialValue() {
      return newCounters();
    }
  };

  /** Empty counters. */
  abstract C emptyCounters();

  /** New counters for the calling thread, registered for the report. */
  final C newCounters() {
    C counters = emptyCounters();
    allCounters.add(counters);
    return counters;
  }

  /** The calling thread's counters. */
  final C counters() {
    return workersMade && Thread.currentThread() instanceof WalkWorker worker
        ? worker.counters(this)
        : callerCounters.get();
  }

  /** Every thread's counters so far. */
  final Iterable<C> allCounters() {
    return allCounters;
  }
}
