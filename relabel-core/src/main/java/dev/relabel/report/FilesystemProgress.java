package dev.relabel.report;

import dev.relabel.systemd.SystemdNotifier;

import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.nativeio.OpenedStat;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Selinuxfs;
import dev.relabel.policy.SmallFile;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Progress of a long relabel, one filesystem (one walk) at a time: every {@code interval}, if
 * entries were decided since the last time, one line ("Relabeling /home: 41% (1.2M of 2.9M
 * entries, ETA 3m10s)": plain text, fit for a boot console or a log) and, under systemd, the same
 * line as a {@code STATUS=} notification with {@code EXTEND_TIMEOUT_USEC=} three intervals, so a
 * healthy relabel outlives any start timeout while one that stops making progress still times out.
 *
 * <p>A listener: the workers' progress ticks go to an uncontended {@link LongAdder}; one daemon
 * thread writes. Before each walk, {@link #expect} names it (its total: the inodes in use on its
 * filesystem when it starts at the filesystem's root); after it, {@link #completed} writes its
 * exact count. {@link #close} stops the thread, after a last line if entries were decided since.
 */
public final class FilesystemProgress implements RelabelListener, AutoCloseable {
  private static final Kernel KERNEL = Kernel.linux();
  private static final Path PROC_MOUNTS = Path.of("/proc/mounts");

  private final Consumer<String> console;
  private final Optional<SystemdNotifier> notifier;
  private final Duration interval;
  private final LongAdder done = new LongAdder();
  private final ScheduledExecutorService timer;
  private volatile Walk current;
  private long lastShown;

  /** The walk under way: what it labels, its total when known, and where the counts stood at its start. */
  private record Walk(String what, OptionalLong total, long doneBefore, long startNanos) {}

  /**
   * @param console where each progress line goes (without its newline); {@code line -> {}} for none
   * @param notifier systemd's socket, when running under it
   * @param interval how often a line is written, and a notification sent, while entries are decided
   */
  public FilesystemProgress(Consumer<String> console, Optional<SystemdNotifier> notifier, Duration interval) {
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

  /**
   * Before the walk of {@code root} (absolute path bytes), which the lines call {@code what}: its
   * total is its filesystem's inodes in use, when it is a mount's root.
   */
  public void expect(byte[] root, String what) {
    Optional<MountRoot> mount = mountRoot(root);
    expect(what, mount.isPresent() ? OptionalLong.of(mount.get().inodesInUse()) : OptionalLong.empty());
  }

  /** Before a walk: what the lines call it, and how many entries it is expected to decide. */
  public void expect(String what, OptionalLong total) {
    current = new Walk(what, total, done.sum(), System.nanoTime());
  }

  /** After a walk: its last line, with the exact count. */
  public synchronized void completed(RelabelReport report) {
    Walk walk = current;
    lastShown = done.sum();
    if (walk != null) {
      show(walk.what() + ": done, " + count(report.visited()) + " entries, " + report.relabeled() + " relabelled, "
          + report.failures().size() + " failed");
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
    show(statusLine(walk.what(), now - walk.doneBefore(), walk.total(), seconds));
  }

  private void show(String line) {
    console.accept(line);
    notifier.ifPresent(n -> n.progress(line, interval.multipliedBy(3)));
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
      return String.format(Locale.ROOT, "%.1fk", n / 1e3);
    }
    return String.format(Locale.ROOT, "%.1fM", n / 1e6);
  }

  /** 45s, 3m10s, 2h05m. */
  public static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + String.format(Locale.ROOT, "%02d", seconds % 60) + "s";
    }
    return seconds / 3600 + "h" + String.format(Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
  }

  /** A filesystem a walk starts at the root of: its device, and the inodes it has in use. */
  public record MountRoot(long device, long inodesInUse) {}

  /**
   * The filesystem {@code root} (absolute) is the root of, as libselinux estimates a mass
   * relabel's size: a mount's root, a bind mount's too (fixfiles -M labels each filesystem through
   * one); empty when {@code root} is not one, or cannot be told.
   */
  public static Optional<MountRoot> mountRoot(byte[] path) {
    try {
      // Opened (a directory only, never through a symlink): one statx gives its status and
      // whether it is a mount's root.
      int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, Kernel.nul(path), path);
      OpenedStat opened;
      try {
        opened = KERNEL.statOpened(fd, path);
      } finally {
        KERNEL.close(fd);
      }
      FileStat stat = opened.stat();
      boolean root = opened.mountRoot().isPresent() ? opened.mountRoot().get() : parentOnAnotherDevice(path, stat);
      if (!root) {
        return Optional.empty();
      }
      return Optional.of(new MountRoot(stat.device(), KERNEL.inodesInUse(Kernel.nul(path), path)));
    } catch (NativeIoException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether {@code path}'s parent lies on another device than {@code stat}'s: a mount's root where
   * statx cannot tell (before Linux 5.8; a bind mount of the same filesystem is not told then).
   */
  private static boolean parentOnAnotherDevice(byte[] path, FileStat stat) throws NativeIoException {
    int slash = PathBytes.latin1(path).lastIndexOf('/');
    if (path.length > 1 && slash >= 0) {
      byte[] parentPath = slash == 0 ? new byte[] {'/'} : Arrays.copyOf(path, slash);
      return KERNEL.stat(Kernel.AT_FDCWD, parentPath, parentPath).device() != stat.device();
    }
    return true;
  }

  /**
   * libselinux's estimate of what a relabel of {@code /} counts (3.4's
   * {@code exclude_non_seclabel_mounts}, once per process): the inodes in use on every mount that
   * /proc/mounts marks {@code seclabel}, plus 5% "for directories and hard links", truncated; 0
   * where SELinux is not enabled, and setfiles -p then prints counts, not percentages.
   */
  public static long massRelabelEstimate() {
    if (!Selinuxfs.system().enabled()) {
      return 0;
    }
    try {
      return massRelabelEstimate(new String(SmallFile.read(PROC_MOUNTS), StandardCharsets.ISO_8859_1), point -> {
        try {
          return KERNEL.inodesInUse(Kernel.nul(point), point);
        } catch (NativeIoException e) {
          return 0; // libselinux adds nothing for a mount point statvfs fails on
        }
      });
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * The estimate from the text of /proc/mounts and each mount point's inodes in use. The mount
   * point is passed as that file spells it, its octal escapes left in, as libselinux passes it to
   * statvfs (which then finds no such directory: a mount point with a space in its name counts 0).
   */
  static long massRelabelEstimate(String procMounts, ToLongFunction<byte[]> inodesInUse) {
    long files = 0;
    for (String line : procMounts.split("\n")) {
      String[] fields = line.split(" ");
      if (fields.length >= 4 && Arrays.asList(fields[3].split(",")).contains("seclabel")) {
        files += inodesInUse.applyAsLong(fields[1].getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    return (long) (files * 1.05);
  }

  /** Stops the thread, after a last line if entries were decided since the previous one. */
  @Override
  public void close() {
    timer.shutdownNow();
    tick();
  }
}
