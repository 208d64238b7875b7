package dev.relabel.cli.output;

import dev.relabel.policy.PathBytes;
import dev.relabel.cli.common.Io;
import dev.relabel.report.FilesystemProgress;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a command's walks, as a listener the engine feeds: a live bar (me.tongfei's
 * progressbar) on the terminal, and/or setfiles' {@code -p} text for scripts.
 *
 * <p>Workers only add to a {@link LongAdder} (the engine ticks once per 1024 entries per worker,
 * so they never wait on each other); one scheduled thread reads the sum and updates the display.
 *
 * <p>The total is estimated as libselinux estimates a mass relabel: the inodes in use
 * ({@code f_files - f_ffree} of statfs) on each filesystem walked, once per filesystem. That
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
  /** setfiles' STAR_COUNT: one progress line per this many entries. */
  private static final int STAR_COUNT = 1024;

  private final LongAdder done = new LongAdder();
  private final Io io;
  private final StatusLine line;
  private final ProgressBar bar;
  private final OutputStream text;
  private final ScheduledExecutorService refresher;
  private final Set<Long> devicesCounted = new HashSet<>();
  /** Entries of the walks already completed, as their reports count them. */
  private long settled;
  private volatile long total;
  private volatile boolean totalKnown = true;
  private volatile boolean massRelabel;
  /** setfiles text: the last multiple of {@value #STAR_COUNT} printed, in units of it. */
  private long printedStars;
  private boolean finished;

  private ProgressReporter() {
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
   */
  ProgressReporter(Io io, String task, boolean bar, OutputStream setfilesText, boolean stdoutTerminal) {
    this.line = bar ? new StatusLine(io.err(), io.charset()) : null;
    this.text = setfilesText;
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
    done.add(entries);
  }

  /** Before walking {@code root} (absolute): adds its filesystem's inodes in use to the estimate. */
  public void expect(byte[] root) {
    if (this == NONE) {
      return;
    }
    massRelabel |= root.length == 1 && root[0] == '/';
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
      done.add(report.visited() - ticked);
      settled += report.visited();
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
    if (text != null) {
      printStars(count);
      print(massRelabel ? "\r/ 100.0%\n\n" : "\n");
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
      printStars(count);
    }
  }

  /** setfiles' lines for every multiple of 1024 entries passed since the last call. */
  private synchronized void printStars(long count) {
    StringBuilder lines = new StringBuilder();
    for (long star = printedStars + 1; star <= count / STAR_COUNT; star++) {
      long entries = star * STAR_COUNT;
      if (massRelabel && totalKnown && total > 0) {
        double percent = entries < total ? 100.0 * entries / total : 100;
        lines.append(String.format(java.util.Locale.ROOT, "\r%-.1f%%", percent));
      } else {
        lines.append('\r').append(star).append('k');
      }
    }
    printedStars = Math.max(printedStars, count / STAR_COUNT);
    print(lines.toString());
  }

  private void print(String s) {
    if (s.isEmpty()) {
      return;
    }
    try {
      text.write(s.getBytes(StandardCharsets.US_ASCII));
      text.flush();
    } catch (IOException e) {
      // setfiles goes on when its standard output is closed, and so does this
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
