package dev.relabel.cli.output;

import dev.relabel.policy.PathBytes;
import dev.relabel.cli.common.Io;
import dev.relabel.report.FilesystemProgress;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.OutputStream;
import java.text.DecimalFormat;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a command's walks, as a listener the engine feeds: a live bar (me.tongfei's
 * progressbar) on the terminal, and/or setfiles' {@code -p} text for scripts
 * ({@link SetfilesProgressText}, with libselinux's own estimate). Both count what setfiles -p
 * counts: the entries the policy gives a context.
 *
 * <p>Workers only add to a {@link LongAdder} (the engine ticks once per 1024 entries per worker,
 * so they never wait on each other); one scheduled thread reads the sum and updates the display.
 *
 * <p>The bar's total is estimated from the inodes in use ({@code f_files - f_ffree} of statfs) on
 * each filesystem walked, once per filesystem (libselinux sums every seclabel filesystem). That
 * counts a whole filesystem, so it is used only when every root walked is the root of its
 * filesystem ({@code /} or a mount point); below one, the bar shows entries and rate without a
 * percentage or ETA. Hard links are counted once per name by the walk and once by statfs, so
 * the count may pass the estimate: the estimate then grows with it. Whatever was estimated, the
 * bar ends at the walks' exact count, 100%.
 *
 * <p>Use: {@link #expect} each root before its walk, {@link #completed} with its report, and
 * {@link #finish} (or {@link #close}, which also stops the display after an exception).
 */
public class ProgressReporter implements RelabelListener, AutoCloseable {
  /** Shows nothing: what {@link ProgressOptions#open} gives when there is no one to show it to. */
  public static final ProgressReporter NONE = new ProgressReporter();

  private static final int REFRESH_MILLIS = 100;

  /**
   * The entries found so far; null in {@link #NONE}, which counts nothing, so that a one-file run
   * never starts LongAdder's machinery.
   */
  private final LongAdder done;
  private final Io io;
  private final StatusLine line;
  private final ProgressBar bar;
  private final SetfilesProgressText text;
  private final ScheduledExecutorService refresher;
  private final Set<Long> devicesCounted = new HashSet<>();
  /** Entries of the walks already completed, as their reports count them. */
  private long settled;
  private volatile long total;
  private volatile boolean totalKnown = true;
  private boolean finished;

  private ProgressReporter() {
    done = null;
    io = null;
    line = null;
    bar = null;
    text = null;
    refresher = null;
  }

  /**
   * @param bar whether to draw the live bar on standard error
   * @param setfilesText where to print setfiles' -p text (standard output), or null
   * @param stdoutTerminal whether standard output shares the bar's terminal (then it too must
   *     erase the bar before it writes)
   * @param fixfilesRuns whether the setfiles text's runs begin with a walk and end at
   *     {@link #endSetfilesRun}, as the restorecon and setfiles runs of fixfiles, rather than
   *     one run from the start to {@link #finish}, as setfiles
   * @param massRelabelEstimate the setfiles text's estimate of a relabel of / (0: none)
   */
  ProgressReporter(Io io, String task, boolean bar, OutputStream setfilesText, boolean stdoutTerminal,
      boolean fixfilesRuns, LongSupplier massRelabelEstimate) {
    this.done = new LongAdder();
    this.line = bar ? new StatusLine(io.err(), io.charset()) : null;
    this.text = setfilesText == null ? null : new SetfilesProgressText(setfilesText, !fixfilesRuns, massRelabelEstimate);
    this.io = line == null ? io
        : io.withOutput(stdoutTerminal ? line.guard(io.out()) : io.out(), line.guard(io.err()));
    this.bar = bar ? newBar(task, line, PathBytes.isUtf8(io.charset())) : null;
    this.refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "relabel-progress");
      thread.setDaemon(true);
      return thread;
    });
    refresher.scheduleWithFixedDelay(this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
  }

  private static ProgressBar newBar(String task, StatusLine line, boolean unicode) {
    return new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(-1)
        .setStyle(unicode ? ProgressBarStyle.UNICODE_BLOCK : ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(REFRESH_MILLIS)
        .setUnit(" entries", 1)
        .showSpeed(new DecimalFormat("#,##0"))
        .setSpeedUnit(ChronoUnit.SECONDS)
        .setConsumer(new BarConsumer(line))
        .build();
  }

  /**
   * The streams the command writes its own output to while the bar is live: those on the bar's
   * terminal erase it first. Without a bar, {@code io} itself.
   */
  public Io streams(Io io) {
    return line == null ? io : this.io;
  }

  @Override
  public void progress(long entries) {
    if (done != null) {
      done.add(entries);
    }
  }

  /**
   * Before walking {@code root} (absolute): for the bar, adds its filesystem's inodes in use to the
   * estimate (the setfiles text has libselinux's own).
   */
  public void expect(byte[] root) {
    if (this == NONE) {
      return;
    }
    if (text != null) {
      text.expect();
    }
    if (bar == null) {
      return; // no bar, no estimate of its own to make (two stats and a statfs)
    }
    Optional<FilesystemProgress.MountRoot> mount = FilesystemProgress.mountRoot(root);
    if (mount.isEmpty()) {
      totalKnown = false; // not a filesystem's root, or the walk reports the error: no percentage
    } else if (addDevice(mount.get().device())) {
      total += mount.get().inodesInUse();
    }
  }

  private synchronized boolean addDevice(long device) {
    return devicesCounted.add(device);
  }

  /** After a walk: the display catches up with the walk's exact count. */
  public void completed(RelabelReport report) {
    if (this == NONE) {
      return;
    }
    synchronized (this) {
      long ticked = done.sum() - settled;
      done.add(report.labelled() - ticked);
      settled += report.labelled();
    }
  }

  /** The setfiles run whose -p text this shows is a mass relabel from here on ({@link SetfilesProgressText#massRelabel}). */
  public void massRelabel() {
    if (text != null) {
      text.massRelabel();
    }
  }

  /**
   * After the recursive walk of the path setfiles or restorecon names {@code named} (after
   * {@link #completed}): the -p text's closing line for it in a mass relabel.
   */
  public void walked(byte[] named) {
    if (text != null) {
      text.walked(done.sum(), named);
    }
  }

  /**
   * The setfiles or restorecon run whose -p text this shows ends here (after its walks'
   * {@link #completed}): its last lines are printed and the next walk's text counts from zero, as
   * a new process's would. fixfiles runs restorecon once per path it is given. The bar goes on.
   */
  public void endSetfilesRun() {
    if (text != null) {
      text.end(done.sum());
    }
  }

  /** Ends the display at the exact count, 100%, and stops the refresh thread. */
  public void finish() {
    if (this == NONE) {
      return;
    }
    synchronized (this) {
      if (finished) {
        return;
      }
      finished = true;
    }
    refresher.shutdownNow();
    try {
      refresher.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long count = done.sum();
    if (bar != null) {
      bar.maxHint(Math.max(count, 1));
      bar.stepTo(count);
      bar.close();
      // progressbar 0.10.1 closes its consumer only if its render task ran once before close():
      // a bar closed sooner is drawn but never ended. Ending it here again is harmless (end() is
      // a no-op on an ended line) and keeps the next output off the bar's line.
      line.end();
    }
    if (text != null && text.open()) {
      text.end(count);
    }
  }

  @Override
  public void close() {
    finish();
  }

  /** One update of the display, from the refresh thread (and tests). */
  void refresh() {
    long count = done.sum();
    if (bar != null) {
      bar.maxHint(totalKnown && total > 0 ? Math.max(total, count) : -1);
      bar.stepTo(count);
      bar.refresh();
    }
    if (text != null) {
      text.update(count);
    }
  }

  /** Hands the library's rendered bar to the status line, at the width the library measures. */
  private static final class BarConsumer extends ConsoleProgressBarConsumer {
    private final StatusLine line;

    BarConsumer(StatusLine line) {
      super(System.err);
      this.line = line;
    }

    @Override
    public void accept(String rendered) {
      line.draw(rendered);
    }

    @Override
    public void close() {
      line.end();
    }
  }
}
