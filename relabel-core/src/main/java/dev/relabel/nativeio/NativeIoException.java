package dev.relabel.nativeio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A failed system call, with the errno and the path it concerned. Subclasses name the errnos a
 * relabeller reacts to differently; every other errno is this class.
 */
public class NativeIoException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int errno;
  private final String operation;
  private final transient byte[] path;

  NativeIoException(String operation, byte[] path, int errno) {
    super(operation + " " + display(path) + ": " + Errno.describe(errno));
    this.operation = operation;
    this.path = path.clone();
    this.errno = errno;
  }

  /** The errno the call failed with. */
  public int errno() {
    return errno;
  }

  /** The C library's words for the errno, as {@code %m} prints them ("No such file or directory"). */
  public String reason() {
    return Errno.strerror(errno);
  }

  /** The errno's symbolic name and words, e.g. "EROFS (Read-only file system)". */
  public String describe() {
    return Errno.describe(errno);
  }

  /** The call that failed ({@code openat}, {@code getxattrat}, ...). */
  public String operation() {
    return operation;
  }

  /** The path concerned, as raw bytes. */
  public byte[] path() {
    return path.clone();
  }

  static String display(byte[] path) {
    return new String(path, StandardCharsets.UTF_8);
  }

  /**
   * The exception for {@code errno}: a typed subclass where one exists. Public for the failures
   * libselinux defines above the system call in errno's terms (an empty label read is ENOTSUP).
   */
  public static NativeIoException of(String operation, byte[] path, int errno) {
    return switch (errno) {
      case Errno.ENOENT -> new NoSuchEntryException(operation, path, errno);
      case Errno.EPERM -> new PermissionDeniedException(operation, path, errno);
      case Errno.EACCES -> new AccessDeniedException(operation, path, errno);
      case Errno.EROFS -> new ReadOnlyFileSystemException(operation, path, errno);
      case Errno.ENOTSUP -> new NotSupportedException(operation, path, errno);
      case Errno.ELOOP, Errno.ENOTDIR -> new NotFollowedException(operation, path, errno);
      case Errno.ENODATA -> new NoLabelException(operation, path, errno);
      case Errno.ENOTEMPTY -> new NotEmptyException(operation, path, errno);
      default -> new NativeIoException(operation, path, errno);
    };
  }

  /** ENOENT: the entry vanished. */
  public static final class NoSuchEntryException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    NoSuchEntryException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** EPERM, or EACCES (an {@link AccessDeniedException}). */
  public static class PermissionDeniedException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    PermissionDeniedException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** EACCES: search or read permission denied (setfiles lets an EACCES lstat pass, no other error). */
  public static final class AccessDeniedException extends PermissionDeniedException {
    private static final long serialVersionUID = 1L;

    AccessDeniedException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** EROFS: a read-only filesystem. */
  public static final class ReadOnlyFileSystemException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    ReadOnlyFileSystemException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** ENOTSUP (EOPNOTSUPP): the filesystem has no such attribute support. */
  public static final class NotSupportedException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    NotSupportedException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /**
   * ELOOP or ENOTDIR from an {@code O_NOFOLLOW|O_DIRECTORY} open: the entry is (now) a symlink or
   * not a directory, and was not followed.
   */
  public static final class NotFollowedException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    NotFollowedException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** ENODATA: the entry has no such attribute (no label). */
  public static final class NoLabelException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    NoLabelException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }

  /** ENOTEMPTY: a directory to remove holds entries. */
  public static final class NotEmptyException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    NotEmptyException(String operation, byte[] path, int errno) {
      super(operation, path, errno);
    }
  }
}
