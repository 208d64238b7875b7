package dev.relabel.nativeio;

import java.util.Arrays;
import java.util.List;

/**
 * What a walk and a host ask of the kernel, and all they may ask: directory entries, status,
 * labels and digests, removal (fixfiles' clean-up of /tmp), bind mounts (fixfiles -M), filesystem
 * counts, a notify datagram, a terminal test and sync. Every entry is reached through its
 * directory's descriptor ({@code *at} calls with {@code AT_SYMLINK_NOFOLLOW}), so a path component
 * swapped for a symlink is never followed.
 *
 * <p>A failed call throws a {@link NativeIoException}, a typed subclass for each errno a caller
 * reacts to ({@link NativeIoException.NoSuchEntryException}, ...): errno numbers are turned into
 * exceptions here, in one place, and nothing above compares them. The JNA bindings behind it are
 * package-private. Names may be given with or without their NUL; the walk passes the names
 * {@link #readDirectory} gave, and no call copies them.
 */
public interface Kernel {
  /** {@code AT_FDCWD}: resolve relative to the working directory. */
  int AT_FDCWD = -100;

  /**
   * The system property naming librelabel's file (bin/relabel sets it), with which
   * {@link #readDirectoryAhead} reads ahead.
   */
  String LIBRELABEL_PROPERTY = "relabel.native";

  /** {@code d_type} values of {@code getdents64}, as {@link DirEntry#type()} holds them. */
  int DT_UNKNOWN = 0;
  int DT_FIFO = 1;
  int DT_CHR = 2;
  int DT_DIR = 4;
  int DT_BLK = 6;
  int DT_REG = 8;
  int DT_LNK = 10;
  int DT_SOCK = 12;

  /** The running Linux kernel (x86-64 or aarch64), through JNA ({@link Libc}). */
  static Kernel linux() {
    return LinuxKernel.INSTANCE;
  }

  /**
   * Begins {@link #linux()}'s first initialisation (JNA's: tens of milliseconds) on a daemon
   * thread, so that it overlaps what a command does before its first system call; once per
   * process. Nothing changes for the callers: the first call waits for it to end, and when it
   * failed throws what the initialisation threw, as if it had run it itself.
   */
  static void warmUp() {
    WarmUp.begin();
  }

  /** A NUL-terminated copy of {@code bytes}, as C wants its strings. */
  static byte[] nul(byte[] bytes) {
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  /** The empty name, meaning "the descriptor itself". */
  static byte[] self() {
    return new byte[] {0};
  }

  /**
   * Opens the directory {@code name} under {@code dirfd} without following a symlink: a symlink
   * or non-directory fails with a {@link NativeIoException.NotFollowedException}.
   *
   * @param path the full path, for error messages only
   */
  int openDirectory(int dirfd, byte[] name, byte[] path) throws NativeIoException;

  /**
   * Opens the directory {@code name} under {@code dirfd} as {@link #openDirectory} does, but only on
   * {@code dirfd}'s mount: the kernel refuses a mount point in the call that opens it (openat2's
   * {@code RESOLVE_NO_XDEV}), so no mount made meanwhile is entered. -1, with nothing opened, when
   * it refused, failed or has no openat2: {@link #openDirectory} then opens it or says why not.
   */
  int openDirectoryOnMount(int dirfd, byte[] name);

  /**
   * Opens the directory {@code path} (without its NUL) for looking names up in it only ({@code
   * O_PATH}, symlinks followed: the directory part of a path given): search permission is enough;
   * it cannot be listed.
   */
  int openSearchOnly(byte[] path) throws NativeIoException;

  /**
   * Opens {@code name} under {@code dirfd} for reading, without following a symlink and without
   * waiting: a FIFO or device put in a file's place is opened, not waited on, so the caller
   * compares the descriptor's {@link #stat} with what it expected before reading.
   */
  int openForReading(int dirfd, byte[] name, byte[] path) throws NativeIoException;

  /** Closes a descriptor; errors (other than a bad descriptor, a bug) are ignored as close(2) advises. */
  void close(int fd);

  /**
   * Removes {@code name} under {@code dirfd} ({@code unlinkat(2)}): an empty directory when {@code
   * directory}, any other entry otherwise; a symlink is removed itself, never followed.
   */
  void remove(int dirfd, byte[] name, boolean directory, byte[] path) throws NativeIoException;

  /** Every entry of the open directory {@code fd} but "." and "..", in the order the kernel gives. */
  List<DirEntry> readDirectory(int fd, byte[] path) throws NativeIoException;

  /**
   * As {@link #readDirectory}, with each entry's status and label read in the same pass where
   * relabel's own native library, librelabel, is loaded (for a walk that reads most of them: far
   * fewer native calls); an entry whose read failed carries none, and its own call answers as it
   * always did; so does the label of a directory on which something is mounted, never read ahead.
   * Without librelabel, the entries alone.
   */
  List<DirEntry> readDirectoryAhead(int fd, byte[] path) throws NativeIoException;

  /** The status of {@code name} under {@code dirfd}, not following a symlink; an empty name is {@code dirfd}. */
  FileStat stat(int dirfd, byte[] name, byte[] path) throws NativeIoException;

  /**
   * lstat(2) of a whole path (without its NUL), relative to the working directory; the empty path
   * fails as lstat fails it, with a {@link NativeIoException.NoSuchEntryException}.
   */
  FileStat lstat(byte[] path) throws NativeIoException;

  /**
   * realpath(3) of a whole path (without its NUL), relative to the working directory: the absolute
   * path it names, every symlink in it followed.
   */
  byte[] realPath(byte[] path) throws NativeIoException;

  /**
   * The status of the open {@code fd}, and whether it is the root of a mount there (another
   * filesystem's, or a bind mount, maybe of the very filesystem it is mounted on), in one statx:
   * the kernel tells the latter since Linux 5.8, empty before.
   */
  OpenedStat statOpened(int fd, byte[] path) throws NativeIoException;

  /** The filesystem magic ({@code f_type}) of the filesystem holding {@code fd}. */
  long filesystemType(int fd, byte[] path) throws NativeIoException;

  /**
   * The filesystem magic ({@code f_type}) of the filesystem at {@code path} (without its NUL),
   * every symlink in it followed, the last component's too: statfs(2), whose lookup mounts what an
   * automount point there stands for.
   */
  long filesystemTypeAt(byte[] path) throws NativeIoException;

  /**
   * The inodes in use on the filesystem holding {@code path} (NUL-terminated), {@code f_files -
   * f_ffree} of statfs(2); 0 when the filesystem does not count inodes.
   */
  long inodesInUse(byte[] path, byte[] shown) throws NativeIoException;

  /** The raw value of {@code security.selinux} on {@code name} under {@code dirfd}; null when it has none. */
  byte[] getLabel(int dirfd, byte[] name, byte[] path) throws NativeIoException;

  /** Sets {@code security.selinux} on {@code name} under {@code dirfd}, not following a symlink. */
  void setLabel(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException;

  /** The raw value of {@code security.sehash}, libselinux's directory digest; null when it has none. */
  byte[] getDigest(int dirfd, byte[] name, byte[] path) throws NativeIoException;

  /** Sets {@code security.sehash} on {@code name} under {@code dirfd}. */
  void setDigest(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException;

  /**
   * Sends {@code message} as one datagram to the Unix socket {@code socketPath} (a leading '@'
   * names an abstract socket), never blocking: the systemd notification protocol.
   */
  void sendDatagram(byte[] socketPath, byte[] message) throws NativeIoException;

  /** Whether {@code fd} is a terminal (isatty(3)). */
  boolean isTerminal(int fd);

  /**
   * Shows the directory {@code source} at {@code target} too (both without their NUL), without the
   * mounts below it ({@code mount --bind}, not {@code --rbind}): what those cover shows there.
   */
  void bindMount(byte[] source, byte[] target) throws NativeIoException;

  /** Takes the mount at {@code target} (without its NUL) off at once ({@code umount -l}). */
  void detachMount(byte[] target) throws NativeIoException;

  /** {@code sync(2)}: every filesystem's dirty data to disk (before a reboot). */
  void syncAll();

  /** Whether label calls use {@code getxattrat}/{@code setxattrat} (false after ENOSYS). */
  boolean usesXattrAt();
}
