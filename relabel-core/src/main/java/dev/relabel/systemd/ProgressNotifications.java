package dev.relabel.systemd;

import dev.relabel.walk.RelabelListener;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Tells systemd how a long relabel is going: every {@code interval}, if entries were decided since
 * the last time, one notification with a {@code STATUS=} line ("Relabeling /home: 41% (1.2M of
 * 2.9M entries, ETA 3m10s)") and {@code EXTEND_TIMEOUT_USEC=} three intervals, so a healthy run
 * outlives any start timeout while one that stops making progress still times out.
 *
 * <p>A listener: the workers' progress ticks go to an uncontended {@link LongAdder}; one daemon
 * thread sends. {@link #close} stops it.
 */
public final class ProgressNotifications implements RelabelListener, AutoCloseable {
  private final SystemdNotifier notifier;
  private final Duration interval;
  private final Supplier<String> what;
  private final OptionalLong total;
  private final LongAdder done = new LongAdder();
  private final ScheduledExecutorService timer;
  private final long start = System.nanoTime();
  private long lastSent;

  /**
   * @param what what is being labelled, asked at each notification (a mount point, say)
   * @param total the number of entries expected, when known (for a percentage and an ETA)
   */
  public ProgressNotifications(SystemdNotifier notifier, Duration interval, Supplier<String> what, OptionalLong total) {
    this.notifier = notifier;
    this.interval = interval;
    this.what = what;
    this.total = total;
    this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "relabel-sd-notify");
      thread.setDaemon(true);
      return thread;
    });
    long millis = Math.max(1, interval.toMillis());
    timer.scheduleAtFixedRate(this::tick, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void progress(long entries) {
    done.add(entries);
  }

  private synchronized void tick() {
    long now = done.sum();
    if (now == lastSent) {
      return;
    }
    lastSent = now;
    double seconds = (System.nanoTime() - start) / 1e9;
    notifier.progress(statusLine(what.get(), now, total, seconds), interval.multipliedBy(3));
  }

  /**
   * "Relabeling WHAT: 41% (1.2M of 2.9M entries, ETA 3m10s)", or without a total
   * "Relabeling WHAT: 1.2M entries (25.3k/s)".
   */
  public static String statusLine(String what, long done, OptionalLong total, double elapsedSeconds) {
    double rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
    if (total.isPresent() && total.getAsLong() > 0) {
      long all = Math.max(total.getAsLong(), done);
      int percent = (int) Math.min(100, done * 100 / all);
      String eta = rate > 0 ? ", ETA " + duration((long) Math.ceil((all - done) / rate)) : "";
      return "Relabeling " + what + ": " + percent + "% (" + count(done) + " of " + count(all) + " entries" + eta + ")";
    }
    return "Relabeling " + what + ": " + count(done) + " entries (" + count((long) rate) + "/s)";
  }

  /** 950, 12.3k, 1.2M. */
  public static String count(long n) {
    if (n < 1_000) {
      return Long.toString(n);
    }
    if (n < 1_000_000) {
      return String.format(java.util.Locale.ROOT, "%.1fk", n / 1e3);
    }
    return String.format(java.util.Locale.ROOT, "%.1fM", n / 1e6);
  }

  /** 45s, 3m10s, 2h05m. */
  static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + String.format(java.util.Locale.ROOT, "%02d", seconds % 60) + "s";
    }
    return seconds / 3600 + "h" + String.format(java.util.Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
  }

  /** Stops the notifications; a last one is sent if entries were decided since the previous. */
  @Override
  public void close() {
    timer.shutdownNow();
    tick();
  }
}
