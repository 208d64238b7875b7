package dev.relabel.nativeio;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A fork-join worker that carries its own native buffers, found by a type test on the current
 * thread. Any other thread finds its buffers through a {@code ThreadLocal}, whose lookup under C1
 * calls into the VM ({@code Reference.refersTo} is no intrinsic there): a walk made two such
 * lookups for every entry (benchmarks/RESULTS.md, "Fourteenth pass").
 */
public class WorkerThread extends ForkJoinWorkerThread {
  /** This thread's buffers, made by its first native call. */
  NativeIo.Scratch scratch;

  protected WorkerThread(ForkJoinPool pool) {
    super(pool);
    NativeIo.workerThreadsMade = true;
  }
}
