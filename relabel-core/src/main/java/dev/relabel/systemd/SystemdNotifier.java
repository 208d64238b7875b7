package dev.relabel.systemd;

import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * systemd's service notification protocol ({@code sd_notify(3)}), spoken directly: each
 * notification is one datagram of {@code VARIABLE=value} lines to the Unix socket named by
 * {@code $NOTIFY_SOCKET}. No libsystemd is needed, and outside systemd there is no socket and
 * nothing is sent. Sending is best effort, as with {@code sd_notify}: a relabel never fails
 * because the service manager did not listen; failures are only counted.
 *
 * <p>Immutable apart from the failure count; thread-safe.
 */
public final class SystemdNotifier {
  private static final Kernel KERNEL = Kernel.linux();

  private final byte[] socket;
  private final AtomicLong failures = new AtomicLong();

  private SystemdNotifier(byte[] socket) {
    this.socket = socket.clone();
  }

  /** The notifier for {@code $NOTIFY_SOCKET}; empty when it is unset or empty (not under systemd). */
  public static Optional<SystemdNotifier> fromEnvironment() {
    return of(System.getenv("NOTIFY_SOCKET"));
  }

  /** The notifier for a socket named as {@code $NOTIFY_SOCKET} names it; empty for null or "". */
  public static Optional<SystemdNotifier> of(String notifySocket) {
    if (notifySocket == null || notifySocket.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SystemdNotifier(notifySocket.getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code READY=1}: start-up is finished (for {@code Type=notify} services). */
  public void ready() {
    send("READY=1");
  }

  /** {@code STOPPING=1}: the service is shutting down. */
  public void stopping() {
    send("STOPPING=1");
  }

  /** {@code STATUS=...}: the one line {@code systemctl status} shows. */
  public void status(String line) {
    send("STATUS=" + oneLine(line));
  }

  /**
   * {@code STATUS=...} and {@code EXTEND_TIMEOUT_USEC=...} in one datagram: the status, and the
   * promise of another message within {@code within}, so that no start (or stop) timeout kills a
   * run that is still making progress.
   */
  public void progress(String line, Duration within) {
    send("STATUS=" + oneLine(line), "EXTEND_TIMEOUT_USEC=" + within.toNanos() / 1_000);
  }

  /** Sends the assignments as one notification. */
  public void send(String... assignments) {
    byte[] message = String.join("\n", assignments).getBytes(StandardCharsets.UTF_8);
    try {
      KERNEL.sendDatagram(socket, message);
    } catch (NativeIoException e) {
      failures.incrementAndGet();
    }
  }

  /** How many notifications could not be sent. */
  public long failures() {
    return failures.get();
  }

  private static String oneLine(String text) {
    return text.replace('\n', ' ');
  }
}
