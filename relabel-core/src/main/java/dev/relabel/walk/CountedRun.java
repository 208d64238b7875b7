package dev.relabel.walk;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A run of workers: it counts per thread, without a lock, and adds the counts up once at its end
 * (each thread finds its own counters, a {@link WalkWorker} in a field of its own, any other
 * thread, the caller's, which labels a root itself, through a {@code ThreadLocal}); and it can be
 * stopped, by its caller or by a worker's Error.
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
  private volatile boolean cancelled;
  /** The Error a worker's task ended in ({@link #stopFor}); null while none did. */
  private volatile Error stoppedFor;
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

  /** Whether the run was stopped: no more directory is opened, no more entry visited. */
  final boolean cancelled() {
    return cancelled;
  }

  final void cancel() {
    cancelled = true;
  }

  /** Stops the walk for {@code e}, a worker's Error, which {@link #throwIfStopped} then throws; allocates nothing. */
  final void stopFor(Error e) {
    if (stoppedFor == null) {
      stoppedFor = e;
    }
    cancelled = true;
  }

  /** Throws the Error a worker stopped the walk for, if one did. */
  final void throwIfStopped() {
    Error e = stoppedFor;
    if (e != null) {
      throw e;
    }
  }
}
