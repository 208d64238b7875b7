package dev.relabel.cli;

import dev.relabel.nativeio.NativeIo;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.systemd.ProgressNotifications;
import dev.relabel.systemd.SystemdNotifier;
import dev.relabel.walk.RelabelListener;
import dev.relabel.walk.RelabelReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Progress of a long relabel, one filesystem at a time, as plain lines for a boot console or a
 * log ("Relabeling /home: 41% (1.2M of 2.9M entries, ETA 3m10s)": no terminal control
 * characters), and, under systemd, as {@code STATUS=} notifications with
 * {@code EXTEND_TIMEOUT_USEC=}, sent only while entries are being decided, so that a start
 * timeout never kills a healthy relabel and still stops a stuck one.
 *
 * <p>Each walk's total is the inodes in use on its filesystem when the walk starts at the
 * filesystem's root (a mount point); below one it is unknown and the line gives a count and a
 * rate. Workers add to a {@link LongAdder}; one daemon thread writes.
 */
final class FilesystemProgress implements RelabelListener, AutoCloseable {
  private final Consumer<String> console;
  private final Optional<SystemdNotifier> notifier;
  private final Duration interval;
  private final LongAdder done = new LongAdder();
  private final ScheduledExecutorService timer;
  private volatile Walk current;
  private long lastShown = -1;

  /** The walk under way: its root, total when known, and where the counts stood at its start. */
  private record Walk(String root, OptionalLong total, long doneBefore, long startNanos) {}

  /**
   * @param console where each progress line goes (without its newline)
   * @param interval how often a line is written, and a notification sent, while entries are decided
   */
  FilesystemProgress(Consumer<String> console, Optional<SystemdNotifier> notifier, Duration interval) {
    this.console = console;
    this.notifier = notifier;
    this.interval = interval;
    this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "relabel-progress");
      thread.setDaemon(true);
      return thread;
    });
    long millis = Math.max(1, interval.toMillis());
    timer.scheduleAtFixedRate(this::tick, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Before the walk of {@code root} (absolute). */
  void expect(Path root) {
    current = new Walk(root.toString(), total(root), done.sum(), System.nanoTime());
  }

  /** After a walk: its last line, with the exact count. */
  void completed(RelabelReport report) {
    Walk walk = current;
    if (walk != null) {
      show(walk.root() + ": done, " + ProgressNotifications.count(report.visited()) + " entries, "
          + report.relabeled() + " relabelled, " + report.failures().size() + " failed");
    }
  }

  @Override
  public void progress(long entries) {
    done.add(entries);
  }

  private synchronized void tick() {
    Walk walk = current;
    long now = done.sum();
    if (walk == null || now == lastShown) {
      return;
    }
    lastShown = now;
    double seconds = (System.nanoTime() - walk.startNanos()) / 1e9;
    show(ProgressNotifications.statusLine(walk.root(), now - walk.doneBefore(), walk.total(), seconds));
  }

  private void show(String line) {
    console.accept(line);
    notifier.ifPresent(n -> n.progress(line, interval.multipliedBy(3)));
  }

  /** The inodes in use on the filesystem {@code root} is the root of; empty when it is not one. */
  static OptionalLong total(Path root) {
    byte[] path = root.toString().getBytes(StandardCharsets.UTF_8);
    try {
      NativeIo.FileStat stat = NativeIo.stat(NativeIo.AT_FDCWD, NativeIo.nul(path), path);
      Path parent = root.getParent();
      if (parent != null) {
        byte[] parentPath = parent.toString().getBytes(StandardCharsets.UTF_8);
        if (NativeIo.stat(NativeIo.AT_FDCWD, NativeIo.nul(parentPath), parentPath).device() == stat.device()) {
          return OptionalLong.empty();
        }
      }
      return OptionalLong.of(NativeIo.inodesInUse(NativeIo.nul(path), path));
    } catch (NativeIoException e) {
      return OptionalLong.empty();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
