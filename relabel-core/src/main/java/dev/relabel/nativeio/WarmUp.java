package dev.relabel.nativeio;

/**
 * JNA's first initialisation (its native library, its logger, the C library's functions looked up:
 * {@link NativeIo}'s and {@link Libc}'s class initialisations, tens of milliseconds at a start) on
 * a daemon thread of its own, begun by {@link Kernel#warmUp()} so that it overlaps whatever a
 * command does before its first system call. (A warm-up leaves {@link Libc}'s direct mapping
 * unbound: calls bind it when there are enough of them to repay it.)
 *
 * <p>A class initialisation that fails fails for good, and only the thread that ran it sees its
 * error; every later use gets "Could not initialize class". So every entry to {@link NativeIo}
 * ({@link LinuxKernel}'s methods, {@link Errno}'s) first {@link #await}s the warm-up, and the first
 * use after one that failed throws what the warm-up caught: a caller sees what it would have seen
 * had it initialised the class itself.
 */
final class WarmUp extends Thread {
  /** The warm-up begun and not yet awaited; null before and after. */
  private static volatile WarmUp running;
  private static boolean begun;

  /** What the initialisation threw; read after {@link #join()}. */
  private Throwable failure;

  private WarmUp() {
    super("relabel-jna-warm-up");
    setDaemon(true);
  }

  /** Begins the warm-up, once per process. */
  static void begin() {
    synchronized (WarmUp.class) {
      if (!begun) {
        begun = true;
        WarmUp warmUp = new WarmUp();
        running = warmUp;
        warmUp.start();
      }
    }
  }

  @Override
  public void run() {
    try {
      NativeIo.initialise();
      Libc.initialise();
    } catch (Throwable t) {
      failure = t; // for the first use; nothing is printed here
    }
  }

  /**
   * Before a use of {@link NativeIo}: waits for the warm-up, if one is running, and throws its
   * failure, if it had one, to the first caller only.
   */
  static void await() {
    if (running != null) {
      awaitRunning();
    }
  }

  private static void awaitRunning() {
    Throwable failure;
    synchronized (WarmUp.class) {
      WarmUp warmUp = running;
      if (warmUp == null) {
        return;
      }
      boolean interrupted = false;
      while (warmUp.isAlive()) {
        try {
          warmUp.join();
        } catch (InterruptedException e) {
          interrupted = true; // as a class initialisation waited for would be: uninterruptibly
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      running = null;
      failure = warmUp.failure;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure instanceof RuntimeException exception) {
      throw exception;
    }
  }
}
