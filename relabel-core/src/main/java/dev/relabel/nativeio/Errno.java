package dev.relabel.nativeio;

/**
 * The Linux errno values the engine names (the same on x86-64 and aarch64), and their words: for
 * reports and tests. Code above {@code nativeio} reacts to the typed {@link NativeIoException}s,
 * never to these numbers.
 */
public final class Errno {
  public static final int EPERM = 1;
  public static final int ENOENT = 2;
  public static final int EINTR = 4;
  public static final int EIO = 5;
  public static final int EBADF = 9;
  public static final int EACCES = 13;
  public static final int EEXIST = 17;
  public static final int ENOTDIR = 20;
  public static final int EINVAL = 22;
  public static final int ENOSPC = 28;
  public static final int EROFS = 30;
  public static final int ERANGE = 34;
  public static final int ENAMETOOLONG = 36;
  public static final int ENOSYS = 38;
  public static final int ENOTEMPTY = 39;
  public static final int ELOOP = 40;
  public static final int ENODATA = 61;
  public static final int ENOTSUP = 95;

  private Errno() {}

  /** The C library's text for {@code errno}, as {@code %m} prints it. */
  public static String strerror(int errno) {
    WarmUp.await();
    return NativeIo.strerrorText(errno);
  }

  /** The symbolic name and the C library's message, e.g. "EROFS (Read-only file system)". */
  public static String describe(int errno) {
    WarmUp.await();
    String name = switch (errno) {
      case EPERM -> "EPERM";
      case ENOENT -> "ENOENT";
      case EINTR -> "EINTR";
      case EIO -> "EIO";
      case EBADF -> "EBADF";
      case EACCES -> "EACCES";
      case EEXIST -> "EEXIST";
      case ENOTDIR -> "ENOTDIR";
      case EINVAL -> "EINVAL";
      case ENOSPC -> "ENOSPC";
      case EROFS -> "EROFS";
      case ERANGE -> "ERANGE";
      case ENAMETOOLONG -> "ENAMETOOLONG";
      case ENOSYS -> "ENOSYS";
      case ENOTEMPTY -> "ENOTEMPTY";
      case ELOOP -> "ELOOP";
      case ENODATA -> "ENODATA";
      case ENOTSUP -> "ENOTSUP";
      default -> "errno " + errno;
    };
    return name + " (" + NativeIo.strerrorText(errno) + ")";
  }
}
