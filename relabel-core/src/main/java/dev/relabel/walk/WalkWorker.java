package dev.relabel.walk;

import dev.relabel.nativeio.WorkerThread;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A walk's worker thread: its native buffers, and its counters for the run it last worked for,
 * found without a {@code ThreadLocal} lookup on each entry (see {@link WorkerThread}).
 */
final class WalkWorker extends WorkerThread {
  /** Makes the workers of a pool that walks; a class, not a lambda (see {@link CountedRun}). */
  static final ForkJoinPool.ForkJoinWorkerThreadFactory FACTORY = new ForkJoinPool.ForkJoinWorkerThreadFactory() {
    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
      return new WalkWorker(pool);
    }
  };

  /**
   * The run {@link #counters} count for; a pool serves one run after another. Held until the
   * next run or until the idle worker ends (the pool's keep-alive, or its owner's close()).
   */
  private CountedRun<?> run;
  private Object counters;

  private WalkWorker(ForkJoinPool pool) {
    super(pool);
    CountedRun.workersMade = true;
  }

  /** This thread's counters in {@code current}, made on its first entry there. */
  @SuppressWarnings("unchecked")
  <C> C counters(CountedRun<C> current) {
    if (run != current) {
      counters = current.newCounters();
      run = current;
    }
    return (C) counters;
  }
}
