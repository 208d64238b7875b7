package dev.relabel.systemd;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The service manager's end, for tests: a Unix datagram socket bound at a path, as systemd binds
 * {@code $NOTIFY_SOCKET}, that collects what is sent to it. Speaks to libc through JNA itself, as
 * the test oracles do; the engine's own {@code NativeIo} is what is under test.
 */
final class NotifySocket implements AutoCloseable {
  interface C extends Library {
    C LIBC = Native.load("c", C.class);

    int socket(int domain, int type, int protocol) throws LastErrorException;

    int bind(int fd, byte[] address, int length) throws LastErrorException;

    int setsockopt(int fd, int level, int name, long[] value, int length) throws LastErrorException;

    long recv(int fd, byte[] buffer, long length, int flags) throws LastErrorException;

    int close(int fd) throws LastErrorException;
  }

  private static final int AF_UNIX = 1;
  private static final int SOCK_DGRAM = 2;
  private static final int SOL_SOCKET = 1;
  private static final int SO_RCVTIMEO = 20;
  private static final int EAGAIN = 11;

  private final int fd;
  final String path;

  NotifySocket(Path path) {
    this.path = path.toString();
    byte[] name = this.path.getBytes(StandardCharsets.UTF_8);
    byte[] address = new byte[110];
    address[0] = AF_UNIX;
    System.arraycopy(name, 0, address, 2, name.length);
    fd = C.LIBC.socket(AF_UNIX, SOCK_DGRAM, 0);
    C.LIBC.bind(fd, address, 2 + name.length + 1);
    // struct timeval {0 s, 200 ms}: recv gives up when nothing more comes.
    C.LIBC.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, new long[] {0, 200_000}, 16);
  }

  /** Every datagram received until none comes for 200 ms, each as text. */
  List<String> drain() {
    List<String> messages = new ArrayList<>();
    byte[] buffer = new byte[4096];
    while (true) {
      try {
        long size = C.LIBC.recv(fd, buffer, buffer.length, 0);
        messages.add(new String(buffer, 0, (int) size, StandardCharsets.UTF_8));
      } catch (LastErrorException e) {
        if (e.getErrorCode() == EAGAIN) {
          return messages;
        }
        throw e;
      }
    }
  }

  @Override
  public void close() {
    C.LIBC.close(fd);
  }
}
