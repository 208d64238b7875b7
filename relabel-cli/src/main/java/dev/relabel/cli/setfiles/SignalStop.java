package dev.relabel.cli.setfiles;

import dev.relabel.cli.output.SetfilesOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGINT and SIGTERM into an interrupt of the thread running a relabel, so the engine stops
 * its workers between two entries and hands back its partial report, instead of the JVM exiting
 * wherever it is. A label write is one setxattr(2) call, atomic, so stopping between entries
 * leaves each entry with its old label or its new one. A second signal, for a user who will not
 * wait, halts the process at once with the same status: still safe for the labels, since no write
 * is ever half done, but without the report.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported): the JDK has no supported API that
 * lets a program choose what a signal does other than run shutdown hooks, and a shutdown hook
 * cannot make {@code main} print a report and pick the exit status.
 */
public final class SignalStop implements AutoCloseable, BooleanSupplier {
  /** The signals handled, with their numbers on Linux (the exit status is 128 + the number, as shells report). */
  private static final String[] NAMES = {"INT", "TERM"};
  /** How long after a signal a run that has not stopped is ended ({@link Watchdog}); a walk stops in milliseconds. */
  static final long GRACE_MILLIS = 5_000;

  private final Thread target;
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();
  private volatile Signal received;

  private SignalStop(Thread target) {
    this.target = target;
  }

  /** Handles SIGINT and SIGTERM by interrupting {@code target} until {@link #close}d. */
  public static SignalStop install(Thread target) {
    SignalStop stop = new SignalStop(target);
    for (String name : NAMES) {
      Signal signal = new Signal(name);
      try {
        stop.previous.add(Signal.handle(signal, stop.new Handler()));
        stop.signals.add(signal);
      } catch (IllegalArgumentException e) {
        // The JVM keeps this signal for itself (e.g. -Xrs): its default action stays.
      }
    }
    return stop;
  }

  /** The handler of both signals (a class, not a lambda: one less call site to link at every start). */
  private final class Handler implements SignalHandler {
    @Override
    public void handle(Signal signal) {
      if (received != null) {
        Runtime.getRuntime().halt(status(signal));
      }
      received = signal;
      target.interrupt();
      new Watchdog(signal).start();
    }
  }

  /**
   * Ends the process {@link #GRACE_MILLIS} after the first signal when the run has not ended by then.
   * An interrupt stops the walk between two entries (within milliseconds), but not a thread blocked
   * in a system call that no interrupt ends: reading a list from a pipe nobody closes (-f -, -s), a
   * hung network filesystem. Halting is as safe for the labels as the second signal: no write is
   * ever half done.
   */
  private static final class Watchdog extends Thread {
    private final Signal signal;

    Watchdog(Signal signal) {
      super("relabel-stop-watchdog");
      this.signal = signal;
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        Thread.sleep(GRACE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      try {
        java.io.FileOutputStream err = new java.io.FileOutputStream(java.io.FileDescriptor.err);
        err.write((SetfilesOutput.PREFIX + "stopped by SIG" + signal.getName() + ", still blocked in a system call "
            + GRACE_MILLIS / 1000 + " s later: exiting without a report; every entry has its old label or its new"
            + " one; run the command again to finish\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      } catch (java.io.IOException e) {
        // standard error is gone: the status still says why
      } finally {
        Runtime.getRuntime().halt(status(signal));
      }
    }
  }

  /** Whether a signal has asked the run to stop ({@link BooleanSupplier}'s {@code getAsBoolean}). */
  @Override
  public boolean getAsBoolean() {
    return stopped();
  }

  /** Whether a signal has asked the run to stop. */
  public boolean stopped() {
    return received != null;
  }

  /** The signal's name without "SIG"; null when none came. */
  String signalName() {
    Signal signal = received;
    return signal == null ? null : signal.getName();
  }

  /** The exit status for the signal received: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
  int exitStatus() {
    return status(received);
  }

  /** The labeller whose totals the stop report gives; none: zeros. */
  private PathLabeller labeller;

  /** Counts what {@code labeller} did, for {@link #report}. */
  public void counting(PathLabeller labeller) {
    this.labeller = labeller;
  }

  /**
   * After the signal: what the run did before it stopped, on standard error, and the status a
   * shell reports for a command the signal killed (128 + its number).
   */
  public int report(SetfilesOutput output, boolean dryRun) {
    long visited = labeller == null ? 0 : labeller.visited();
    long relabeled = labeller == null ? 0 : labeller.relabeled();
    long failed = labeller == null ? 0 : labeller.failed();
    output.flush();
    output.error(SetfilesOutput.PREFIX + "stopped by SIG" + signalName() + ": " + visited
        + " entries checked, " + relabeled + (dryRun ? " would be relabelled, " : " relabelled, ") + failed
        + " failed; every entry has its old label or its new one; run the command again to finish\n");
    return exitStatus();
  }

  private static int status(Signal signal) {
    return 128 + signal.getNumber();
  }

  /** Gives the signals back their previous handlers, and clears the interrupt this may have left. */
  @Override
  public void close() {
    for (int i = 0; i < signals.size(); i++) {
      Signal.handle(signals.get(i), previous.get(i));
    }
    if (Thread.currentThread() == target) {
      Thread.interrupted();
    }
  }
}
