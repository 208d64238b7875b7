package dev.relabel.nativeio;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The system calls behind {@link Kernel} (package-private, as the JDK keeps its
 * {@code UnixNativeDispatcher}): the only door to the kernel: the few Linux system calls a relabel
 * needs, through the C library's functions in {@link Libc}, for x86-64 and aarch64. Every entry is
 * reached through its directory's descriptor ({@code *at} calls with {@code AT_SYMLINK_NOFOLLOW}),
 * so a path component swapped for a symlink is never followed. A failed call throws a
 * {@link NativeIoException} carrying the errno and the path; nothing else here knows about errno.
 *
 * <p>Labels are read and written with {@code getxattrat}/{@code setxattrat} (Linux 6.13+). On an
 * older kernel the first ENOSYS switches, once, to the race-free fallback libselinux uses: an
 * {@code O_PATH|O_NOFOLLOW} descriptor and the xattr call on {@code /proc/self/fd/N}. So does an
 * EPERM from {@code getxattrat}, which the kernel never answers for a {@code security.*}
 * attribute: a seccomp filter (a container runtime's profile) that does not know the call.
 */
final class NativeIo {
  static final int AT_FDCWD = Kernel.AT_FDCWD;

  /** The attribute that holds an entry's SELinux context. */
  static final byte[] SELINUX_XATTR = nul("security.selinux".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  /** libselinux's directory digest attribute, NUL-terminated. */
  static final byte[] SEHASH_XATTR = nul("security.sehash".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

  static final int DT_UNKNOWN = Kernel.DT_UNKNOWN;
  static final int DT_FIFO = Kernel.DT_FIFO;
  static final int DT_CHR = Kernel.DT_CHR;
  static final int DT_DIR = Kernel.DT_DIR;
  static final int DT_BLK = Kernel.DT_BLK;
  static final int DT_REG = Kernel.DT_REG;
  static final int DT_LNK = Kernel.DT_LNK;
  static final int DT_SOCK = Kernel.DT_SOCK;

  private static final int O_RDONLY = 0;
  private static final int O_NOFOLLOW = 0400000;
  private static final int O_DIRECTORY = 0200000;
  private static final int O_CLOEXEC = 02000000;
  private static final int O_PATH = 010000000;
  private static final int O_NONBLOCK = 04000;
  private static final int O_NOCTTY = 0400;
  private static final int AT_SYMLINK_NOFOLLOW = 0x100;
  /**
   * A status never mounts what an automount point stands for, as fts's fstatat does not: the
   * directory is labelled as it is, and mounted only if the walk enters it (and -x then stops there).
   */
  private static final int AT_NO_AUTOMOUNT = 0x800;
  private static final int AT_EMPTY_PATH = 0x1000;
  private static final int AT_REMOVEDIR = 0x200;
  private static final long STATX_ATTR_MOUNT_ROOT = 0x2000;
  private static final long MS_BIND = 0x1000;
  private static final int MNT_DETACH = 2;
  private static final int STATX_BASIC = 0x7ff;
  private static final int DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  private static final long SYS_OPENAT2 = 437;
  /** openat2's {@code struct open_how}: flags, mode and resolve, three u64s. */
  private static final int OPEN_HOW_SIZE = 24;
  private static final long RESOLVE_NO_XDEV = 0x01;
  private static final long SYS_SETXATTRAT = 463;
  private static final long SYS_GETXATTRAT = 464;
  private static final int XATTR_ARGS_SIZE = 16;
  private static final int DIRENT_BUFFER = 64 * 1024;
  private static final int LABEL_BUFFER = 4096;
  /**
   * librelabel's results buffer: each call reads entries while one more, with a label of
   * {@value #LABEL_BUFFER} bytes, fits, so at least 31; about a thousand of a system's.
   */
  private static final int AHEAD_BUFFER = 128 * 1024;
  /** A librelabel result's fixed part, before the label. */
  private static final int READ_AHEAD_HEADER = 56;
  /** Linux's PATH_MAX, with the NUL: the buffer realpath(3) writes into. */
  private static final int PATH_MAX = 4096;
  /**
   * The size a label is first read with, as libselinux's getfilecon (INITCONTEXTLEN 255): the
   * kernel allocates and zeroes a buffer of the size asked for at every getxattr, so asking for
   * 4096 bytes to read ~30 cost a 4 KB memset per entry. A longer value (ERANGE) is read again
   * with {@link #LABEL_BUFFER}.
   */
  private static final int FIRST_LABEL_READ = 256;
  private static final int NAME_BUFFER = 4096;
  private static final byte[] EMPTY = {0};
  private static final int AF_UNIX = 1;
  private static final int SOCK_DGRAM = 2;
  private static final int SOCK_CLOEXEC = 02000000;
  private static final int MSG_NOSIGNAL = 0x4000;
  private static final int MSG_DONTWAIT = 0x40;
  /** {@code sizeof(struct sockaddr_un)}: the family, then 108 bytes of path. */
  private static final int SOCKADDR_UN_SIZE = 110;

  /** {@code "security.selinux"}, in native memory once for all calls. */
  private static final Memory XATTR_NAME = nativeString(SELINUX_XATTR);
  /** {@code "security.sehash"}, likewise. */
  private static final Memory SEHASH_NAME = nativeString(SEHASH_XATTR);
  private static final long XATTR_NAME_ADDRESS = Pointer.nativeValue(XATTR_NAME);
  private static final long SEHASH_NAME_ADDRESS = Pointer.nativeValue(SEHASH_NAME);
  /** The {@code struct open_how} of {@link #openDirectoryOnMount}; the kernel only reads it. */
  private static final Memory OPEN_ON_MOUNT = openHow(DIRECTORY_FLAGS, RESOLVE_NO_XDEV);
  private static final long OPEN_ON_MOUNT_ADDRESS = Pointer.nativeValue(OPEN_ON_MOUNT);
  /** The part of {@code struct statx} read, up to {@code stx_dev_minor}. */
  private static final int STATX_READ = 144;

  private static Memory openHow(int flags, long resolve) {
    Memory how = new Memory(OPEN_HOW_SIZE);
    how.setLong(0, flags);
    how.setLong(8, 0);
    how.setLong(16, resolve);
    return how;
  }

  private static Memory nativeString(byte[] nulTerminated) {
    Memory memory = new Memory(nulTerminated.length);
    memory.write(0, nulTerminated, 0, nulTerminated.length);
    return memory;
  }

  /**
   * Per-thread native buffers: each worker reuses its own, so no call allocates native memory and
   * JNA copies no Java array.
   */
  static final class Scratch {
    /**
     * The name (an entry's, or a whole path) the *at calls are given, NUL-terminated; replaced by
     * a larger one for a longer path.
     */
    Memory name = new Memory(NAME_BUFFER);
    long nameAddress = Pointer.nativeValue(name);
    /** What {@link #name} holds, on the heap: a name written once serves the calls that follow. */
    byte[] nameBytes = new byte[NAME_BUFFER];
    /** The length (without its NUL) of the name {@link #name} holds; -1 before the first. */
    int nameLength = -1;
    final Memory dirents = new Memory(DIRENT_BUFFER);
    final long direntsAddress = Pointer.nativeValue(dirents);
    /** The records {@code dirents} holds, copied to the heap to be parsed. */
    final byte[] direntBytes = new byte[DIRENT_BUFFER];
    /** librelabel's results, and their copy on the heap; made at the first read-ahead. */
    Memory ahead;
    long aheadAddress;
    byte[] aheadBytes;
    final Memory label = new Memory(LABEL_BUFFER);
    /**
     * getxattrat's {@code struct xattr_args}: the value into {@link #label}, {@link
     * #FIRST_LABEL_READ} bytes of it, no flags. The kernel only reads it, so it is written once.
     */
    final Memory getArgs = new Memory(XATTR_ARGS_SIZE);
    final long getArgsAddress = Pointer.nativeValue(getArgs);
    /** The same for the whole buffer, after ERANGE. */
    final Memory getAllArgs = new Memory(XATTR_ARGS_SIZE);
    final long getAllArgsAddress = Pointer.nativeValue(getAllArgs);
    /** setxattrat's: the value from {@link #label}; its size is written at each call. */
    final Memory setArgs = new Memory(XATTR_ARGS_SIZE);
    final long setArgsAddress = Pointer.nativeValue(setArgs);
    final Memory stat = new Memory(256);
    final long statAddress = Pointer.nativeValue(stat);
    /** {@code struct statx} copied to the heap in one call, to be parsed there. */
    final byte[] statBytes = new byte[STATX_READ];

    Scratch() {
      getArgs.setLong(0, Pointer.nativeValue(label));
      getArgs.setInt(8, FIRST_LABEL_READ);
      getArgs.setInt(12, 0);
      getAllArgs.setLong(0, Pointer.nativeValue(label));
      getAllArgs.setInt(8, LABEL_BUFFER);
      getAllArgs.setInt(12, 0);
      setArgs.setLong(0, Pointer.nativeValue(label));
      setArgs.setInt(12, 0);
    }
  }

  /**
   * A subclass, not {@code ThreadLocal.withInitial(Scratch::new)}: that was the one lambda of a
   * one-file run, and linking a process's first lambda starts the JDK's method-handle machinery
   * (about 4 ms of JNA's warm-up, the run's critical path; benchmarks/RESULTS.md, "Twelfth pass").
   */
  private static final ThreadLocal<Scratch> SCRATCH = new ThreadLocal<>() {
    @Override
    protected Scratch initialValue() {
      return new Scratch();
    }
  };

  /**
   * Whether a {@link WorkerThread} was ever made: until then the type test is skipped, so that a
   * run without a worker pool (one file) loads no worker class. Only a hint, so not volatile: a
   * thread that sees it late uses {@link #SCRATCH}, and a worker sees it set (Thread.start).
   */
  static boolean workerThreadsMade;

  /** The calling thread's buffers: a {@link WorkerThread}'s own, any other thread's from {@link #SCRATCH}. */
  private static Scratch scratch() {
    if (workerThreadsMade && Thread.currentThread() instanceof WorkerThread worker) {
      if (worker.scratch == null) {
        worker.scratch = new Scratch();
      }
      return worker.scratch;
    }
    return SCRATCH.get();
  }

  /**
   * False once openat2 answered ENOSYS (before Linux 5.6) or EPERM (a seccomp filter that does not
   * know it: opening a directory is otherwise never EPERM).
   */
  private static volatile boolean openat2Available = true;

  /** False once the kernel answered ENOSYS to {@code getxattrat}/{@code setxattrat}. */
  private static volatile boolean xattrAtAvailable = true;

  private NativeIo() {}

  /**
   * The address of {@code name} as a C string in the thread's native name buffer: given
   * NUL-terminated, or without its NUL (a walk passes the names getdents gave, not a terminated
   * copy of each). The buffer is written in one call, and not at all when it already holds that
   * name (a walk's stat and label read of one entry); it grows for a longer name (only whole
   * paths can be).
   */
  private static long nativeName(Scratch scratch, byte[] name) {
    int length = name.length > 0 && name[name.length - 1] == 0 ? name.length - 1 : name.length;
    byte[] held = scratch.nameBytes;
    if (length == scratch.nameLength && Arrays.equals(name, 0, length, held, 0, length)) {
      return scratch.nameAddress;
    }
    if (length >= held.length) {
      int capacity = Math.max(length + 1, 2 * held.length);
      scratch.name = new Memory(capacity);
      scratch.nameAddress = Pointer.nativeValue(scratch.name);
      held = scratch.nameBytes = new byte[capacity];
    }
    System.arraycopy(name, 0, held, 0, length);
    held[length] = 0;
    scratch.nameLength = -1;
    scratch.name.write(0, held, 0, length + 1);
    scratch.nameLength = length;
    return scratch.nameAddress;
  }

  /** Whether {@code name} is empty (with or without its NUL): the *at call is on dirfd itself. */
  private static boolean isEmptyName(byte[] name) {
    return name.length == 0 || name.length == 1 && name[0] == 0;
  }

  /** Nothing but this class's initialisation, which its first call runs ({@link WarmUp}). */
  static void initialise() {}

  /** The C library's message for {@code errno}. */
  static String strerrorText(int errno) {
    return Libc.strerror(errno);
  }

  /** A NUL-terminated copy of {@code bytes}, as C wants its strings. */
  static byte[] nul(byte[] bytes) {
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  /**
   * Opens the directory {@code name} (with or without its NUL) under {@code dirfd} without
   * following a symlink: a symlink or non-directory fails with a
   * {@link NativeIoException.NotFollowedException}.
   *
   * @param path the full path, for error messages only
   */
  static int openDirectory(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    try {
      return Libc.openat(dirfd, nativeName(scratch(), name), DIRECTORY_FLAGS, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("openat", path, e.getErrorCode());
    }
  }

  /** {@link Kernel#openForReading}: O_NONBLOCK, so that a FIFO is not waited on. */
  static int openForReading(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    try {
      return Libc.openat(dirfd, nativeName(scratch(), name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
          | O_CLOEXEC, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("openat", path, e.getErrorCode());
    }
  }

  /**
   * Opens the directory {@code path} (without its NUL), relative to the working directory, for
   * looking names up in it and nothing else ({@code O_PATH}): search permission on it is enough,
   * where {@link #openDirectory} needs read permission too. A symlink in it is followed, the last
   * component too: it is the directory part of a path given (chcon's {@code link-to-dir/file}).
   */
  static int openSearchOnly(byte[] path) throws NativeIoException {
    try {
      return Libc.openat(Kernel.AT_FDCWD, nativeName(scratch(), path), O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("openat", path, e.getErrorCode());
    }
  }

  /**
   * As {@link #openDirectory}, but only on {@code dirfd}'s mount ({@code openat2} with
   * {@code RESOLVE_NO_XDEV}): the kernel refuses, in the same call that opens it, a name that is a
   * mount point, so a mount made after the walk looked at the name is never entered. -1, with
   * nothing opened, when it refused or failed, or has no openat2: {@link #openDirectory} then gives
   * the descriptor or the error it always gave, and the caller compares devices itself (a
   * directory bind-mounted from the same filesystem is refused here but has the same device).
   */
  static int openDirectoryOnMount(int dirfd, byte[] name) {
    if (!openat2Available) {
      return -1;
    }
    long fd = Libc.syscall(SYS_OPENAT2, dirfd, nativeName(scratch(), name), OPEN_ON_MOUNT_ADDRESS, OPEN_HOW_SIZE);
    if (fd < 0) {
      int errno = Native.getLastError();
      if (errno == Errno.ENOSYS || errno == Errno.EPERM) {
        openat2Available = false;
      }
      return -1;
    }
    return (int) fd;
  }

  /** {@code unlinkat(2)}: removes {@code name} under {@code dirfd}, an empty directory with {@code directory}. */
  static void remove(int dirfd, byte[] name, boolean directory, byte[] path) throws NativeIoException {
    try {
      Libc.unlinkat(dirfd, nativeName(scratch(), name), directory ? AT_REMOVEDIR : 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of(directory ? "rmdir" : "unlink", path, e.getErrorCode());
    }
  }

  /** Closes a descriptor; errors (other than a bad descriptor, a bug) are ignored as close(2) advises. */
  static void closeQuietly(int fd) {
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EBADF) {
        throw new IllegalStateException("closed a descriptor that was not open: " + fd, e);
      }
    }
  }

  /** Every entry of the open directory {@code fd} but "." and "..", in the order the kernel gives. */
  static List<DirEntry> readDirectory(int fd, byte[] path) throws NativeIoException {
    return readDirectory(fd, path, false);
  }

  /** False only where a test turns read-ahead off, to walk as a caller without librelabel does. */
  private static volatile boolean readAheadWanted = true;

  /** Whether {@link #readDirectoryAhead} reads ahead: librelabel is loaded. */
  static boolean readsAhead() {
    return readAheadWanted && Libc.hasOwnLibrary();
  }

  /**
   * As {@link #readDirectory}, with each entry's status and label read in the same pass by
   * librelabel, one native call per listing chunk instead of two per entry (see relabel.c). Where
   * librelabel is not loaded, the entries alone.
   */
  static List<DirEntry> readDirectoryAhead(int fd, byte[] path) throws NativeIoException {
    return readDirectory(fd, path, readsAhead());
  }

  private static List<DirEntry> readDirectory(int fd, byte[] path, boolean ahead) throws NativeIoException {
    Scratch scratch = scratch();
    Memory buffer = scratch.dirents;
    List<DirEntry> entries = new ArrayList<>();
    while (true) {
      long read;
      try {
        read = Libc.getdents64(fd, scratch.direntsAddress, DIRENT_BUFFER);
      } catch (LastErrorException e) {
        throw NativeIoException.of("getdents64", path, e.getErrorCode());
      }
      if (read == 0) {
        return entries;
      }
      // One copy into the heap: Pointer.getByte is a JNI call per byte, and a direct ByteBuffer's
      // checked accessors were slower still under C1.
      byte[] records = scratch.direntBytes;
      buffer.read(0, records, 0, (int) read);
      int at = 0;
      while (at < read) {
        // Without read-ahead, the whole chunk; with it, the records librelabel read this call.
        int end = (int) read;
        byte[] results = null;
        int result = 0;
        if (ahead) {
          results = readAhead(scratch, fd, read, at);
          end = (int) u64(results, 0);
          result = 8;
        }
        while (at < end) {
          long inode = u64(records, at);
          int recordLength = u16(records, at + 16);
          int type = records[at + 18] & 0xff;
          int nameStart = at + 19;
          int nameEnd = nameStart;
          while (records[nameEnd] != 0) {
            nameEnd++;
          }
          byte[] name = Arrays.copyOfRange(records, nameStart, nameEnd);
          if (!isDotOrDotDot(name)) {
            if (results == null) {
              entries.add(new DirEntry(name, type, inode));
            } else {
              entries.add(readAheadEntry(name, type, inode, results, result));
              result = nextResult(results, result);
            }
          }
          at += recordLength;
        }
      }
    }
  }

  /**
   * librelabel's results for the chunk's records from {@code at} on, copied to the heap: an
   * 8-byte offset of the first record not read, then one result per entry read (relabel.c says
   * the layout).
   */
  private static byte[] readAhead(Scratch scratch, int fd, long read, int at) {
    if (scratch.aheadBytes == null) {
      scratch.ahead = new Memory(AHEAD_BUFFER);
      scratch.aheadAddress = Pointer.nativeValue(scratch.ahead);
      scratch.aheadBytes = new byte[AHEAD_BUFFER];
    }
    long written = Libc.readAhead(fd, scratch.direntsAddress, read, at, scratch.aheadAddress, AHEAD_BUFFER,
        XATTR_NAME_ADDRESS, xattrAtAvailable);
    if (written < 8) {
      throw new IllegalStateException("relabel_read_ahead refused its arguments: " + written);
    }
    byte[] results = scratch.aheadBytes;
    scratch.ahead.read(0, results, 0, (int) written);
    if (u64(results, 0) <= at) {
      // The buffer holds at least one entry whatever its label (AHEAD_BUFFER): a bug otherwise.
      throw new IllegalStateException("relabel_read_ahead read no entry at " + at);
    }
    return results;
  }

  /**
   * The entry with what librelabel read of it at {@code result}: its status unless statx failed,
   * its label unless the read failed otherwise than with ENODATA (no label), the file has several
   * names, or it is a mount's root: a directory something is mounted on (an entry of unknown type,
   * DT_UNKNOWN, included: librelabel reads its status to tell), or a file bind-mounted onto this
   * name, which has another name besides (statx's mount-root flag tells one, and before Linux 5.8
   * the listing's inode, the covered one, differing from the status's). What is left out is read
   * by the entry's own
   * call, if the walk makes it, which fails or falls back as it always did (a kernel without
   * getxattrat, a label over {@value #LABEL_BUFFER} bytes).
   */
  private static DirEntry readAheadEntry(byte[] name, int type, long inode, byte[] results, int result) {
    int statResult = (int) u32(results, result);
    FileStat stat = null;
    if (statResult == 0) {
      long device = u32(results, result + 24) << 32 | u32(results, result + 28);
      stat = new FileStat((int) u32(results, result + 4), u64(results, result + 8), u64(results, result + 16), device,
          u64(results, result + 32), u64(results, result + 40), (int) u32(results, result + 48));
    }
    int labelSize = (int) u32(results, result + 52);
    if (stat == null || (stat.nlink() > 1 && !stat.isDirectory())) {
      // A file of several names may be written through another of them before this one is
      // visited (setfiles without -H relabels each name in turn, reading the label each time): its
      // label is read at the visit. One whose status is unknown too. (A directory has one name;
      // its link count is its subdirectories'.)
      return new DirEntry(name, type, inode, stat, false, null);
    }
    if (labelSize >= 0) {
      int label = result + READ_AHEAD_HEADER;
      return new DirEntry(name, type, inode, stat, true, Arrays.copyOfRange(results, label, label + labelSize));
    }
    // -ENODATA: it has none. Any other: an error, or a mount's root (librelabel's LABEL_NOT_READ).
    return new DirEntry(name, type, inode, stat, labelSize == -Errno.ENODATA, null);
  }

  /** Where the result after the one at {@code result} begins: the label is padded to 8 bytes. */
  private static int nextResult(byte[] results, int result) {
    int labelSize = Math.max((int) u32(results, result + 52), 0);
    return result + READ_AHEAD_HEADER + ((labelSize + 7) & ~7);
  }

  /*
   * The unsigned fields at {@code at}, little-endian as x86-64 and aarch64 store them. Written out,
   * not looped over a size: C1 unrolls no loop, and a walk reads ten fields an entry.
   */
  private static int u16(byte[] bytes, int at) {
    return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8;
  }

  private static long u32(byte[] bytes, int at) {
    return u16(bytes, at) | (long) u16(bytes, at + 2) << 16;
  }

  private static long u64(byte[] bytes, int at) {
    return u32(bytes, at) | u32(bytes, at + 4) << 32;
  }

  private static boolean isDotOrDotDot(byte[] name) {
    return (name.length == 1 && name[0] == '.') || (name.length == 2 && name[0] == '.' && name[1] == '.');
  }

  /**
   * The status of {@code name} (with or without its NUL) under {@code dirfd}, without following
   * a symlink; an empty name means {@code dirfd} itself.
   */
  static FileStat stat(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return fileStat(statx(dirfd, name, path));
  }

  /**
   * The status of the open {@code fd}, and whether it is the root of a mount: statx's
   * {@code STATX_ATTR_MOUNT_ROOT}, in {@code stx_attributes}, which {@code stx_attributes_mask}
   * says the kernel can tell (Linux 5.8 and later); one call for both.
   */
  static OpenedStat statOpened(int fd, byte[] path) throws NativeIoException {
    byte[] buffer = statx(fd, EMPTY, path);
    Optional<Boolean> mountRoot = (u64(buffer, 56) & STATX_ATTR_MOUNT_ROOT) == 0
        ? Optional.empty()
        : Optional.of((u64(buffer, 8) & STATX_ATTR_MOUNT_ROOT) != 0);
    return new OpenedStat(fileStat(buffer), mountRoot);
  }

  /** statx of {@code name} under {@code dirfd} (not following a symlink), read into this thread's buffer. */
  private static byte[] statx(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    Scratch scratch = scratch();
    int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (isEmptyName(name) ? AT_EMPTY_PATH : 0);
    try {
      Libc.statx(dirfd, nativeName(scratch, name), flags, STATX_BASIC, scratch.statAddress);
    } catch (LastErrorException e) {
      throw NativeIoException.of("statx", path, e.getErrorCode());
    }
    // One copy to the heap instead of a JNI call per field.
    byte[] buffer = scratch.statBytes;
    scratch.stat.read(0, buffer, 0, STATX_READ);
    return buffer;
  }

  private static FileStat fileStat(byte[] buffer) {
    long nlink = u32(buffer, 16);
    int mode = u16(buffer, 28);
    long inode = u64(buffer, 32);
    long ctime = u64(buffer, 96);
    long mtime = u64(buffer, 112);
    int mtimeNanos = (int) u32(buffer, 120);
    long device = u32(buffer, 136) << 32 | u32(buffer, 140);
    return new FileStat(mode, nlink, inode, device, mtime, ctime, mtimeNanos);
  }

  /** The filesystem magic ({@code f_type}) of the filesystem holding {@code fd}. */
  static long filesystemType(int fd, byte[] path) throws NativeIoException {
    Memory buffer = scratch().stat;
    try {
      Libc.fstatfs(fd, buffer);
    } catch (LastErrorException e) {
      throw NativeIoException.of("fstatfs", path, e.getErrorCode());
    }
    return buffer.getLong(0);
  }

  /**
   * {@code realpath(3)} of {@code path} (without its NUL): the absolute path with every symlink,
   * ".", ".." and repeated slash resolved, as bytes, whatever the locale could decode.
   */
  static byte[] realPath(byte[] path) throws NativeIoException {
    byte[] resolved = new byte[PATH_MAX];
    if (Libc.realpath(nul(path), resolved) == null) {
      throw NativeIoException.of("realpath", path, Native.getLastError());
    }
    int end = 0;
    while (resolved[end] != 0) {
      end++;
    }
    return Arrays.copyOf(resolved, end);
  }

  /**
   * The inodes in use on the filesystem holding {@code path} (NUL-terminated), {@code f_files -
   * f_ffree} of statfs(2), as libselinux estimates a mass relabel's size; 0 when the filesystem
   * does not count inodes (f_files is 0 on some, btrfs included).
   */
  static long inodesInUse(byte[] path, byte[] shown) throws NativeIoException {
    Memory buffer = statfs(path, shown);
    // struct statfs on x86-64 and aarch64: seven 8-byte fields, f_files at 40, f_ffree at 48.
    long files = buffer.getLong(40);
    long free = buffer.getLong(48);
    return files > free ? files - free : 0;
  }

  /**
   * The filesystem magic ({@code f_type}) of the filesystem at {@code path} (without its NUL), every
   * symlink in it followed: statfs(2), whose lookup mounts what an automount point stands for.
   */
  static long filesystemTypeAt(byte[] path) throws NativeIoException {
    return statfs(nul(path), path).getLong(0);
  }

  /** statfs(2) of {@code path} (NUL-terminated) into this thread's scratch buffer. */
  private static Memory statfs(byte[] path, byte[] shown) throws NativeIoException {
    Memory buffer = scratch().stat;
    try {
      Libc.statfs(path, buffer);
    } catch (LastErrorException e) {
      throw NativeIoException.of("statfs", shown, e.getErrorCode());
    }
    return buffer;
  }

  /** Whether {@code fd} is a terminal (isatty(3)), to decide whether to draw a progress bar. */
  static boolean isTerminal(int fd) {
    return Libc.isatty(fd) == 1;
  }

  /**
   * The raw value of {@code security.selinux} on {@code name} (with or without its NUL; empty for
   * {@code dirfd} itself) under {@code dirfd}, not following a symlink; null when it has none.
   */
  static byte[] getLabel(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return getAttribute(dirfd, name, XATTR_NAME_ADDRESS, SELINUX_XATTR, path);
  }

  /** Sets {@code security.selinux} on {@code name} under {@code dirfd} to {@code value}, not following a symlink. */
  static void setLabel(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    setAttribute(dirfd, name, XATTR_NAME_ADDRESS, SELINUX_XATTR, value, path);
  }

  /**
   * The raw value of {@code security.sehash}, libselinux's directory digest, on {@code name}
   * under {@code dirfd}, as {@link #getLabel}; null when it has none.
   */
  static byte[] getDigest(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    return getAttribute(dirfd, name, SEHASH_NAME_ADDRESS, SEHASH_XATTR, path);
  }

  /** Sets {@code security.sehash} on {@code name} under {@code dirfd}, as {@link #setLabel}. */
  static void setDigest(int dirfd, byte[] name, byte[] value, byte[] path) throws NativeIoException {
    setAttribute(dirfd, name, SEHASH_NAME_ADDRESS, SEHASH_XATTR, value, path);
  }

  private static byte[] getAttribute(int dirfd, byte[] name, long attribute, byte[] attributeBytes, byte[] path)
      throws NativeIoException {
    Scratch scratch = scratch();
    if (xattrAtAvailable) {
      long nameAddress = nativeName(scratch, name);
      int flags = atFlags(name);
      long size = Libc.syscall(SYS_GETXATTRAT, dirfd, nameAddress, flags, attribute, scratch.getArgsAddress,
          XATTR_ARGS_SIZE);
      int errno = size >= 0 ? 0 : Native.getLastError();
      if (errno == Errno.ERANGE) {
        size = Libc.syscall(SYS_GETXATTRAT, dirfd, nameAddress, flags, attribute, scratch.getAllArgsAddress,
            XATTR_ARGS_SIZE);
        errno = size >= 0 ? 0 : Native.getLastError();
      }
      if (size >= 0) {
        return scratch.label.getByteArray(0, (int) size);
      }
      if (errno == Errno.ENODATA) {
        return null;
      }
      if (errno != Errno.ENOSYS && errno != Errno.EPERM) {
        throw NativeIoException.of("getxattrat", path, errno);
      }
      // A kernel before 6.13, or a seccomp filter (see the class comment): setxattrat too.
      xattrAtAvailable = false;
    }
    int fd = openPath(dirfd, name, path);
    try {
      long size = Libc.getxattr(procPath(fd), attributeBytes, scratch.label, LABEL_BUFFER);
      if (size >= 0) {
        return scratch.label.getByteArray(0, (int) size);
      }
      int errno = Native.getLastError();
      if (errno == Errno.ENODATA) {
        return null;
      }
      throw NativeIoException.of("getxattr", path, errno);
    } finally {
      closeQuietly(fd);
    }
  }

  private static void setAttribute(int dirfd, byte[] name, long attribute, byte[] attributeBytes, byte[] value,
      byte[] path) throws NativeIoException {
    Scratch scratch = scratch();
    if (xattrAtAvailable) {
      scratch.label.write(0, value, 0, value.length);
      scratch.setArgs.setInt(8, value.length);
      if (Libc.syscall(SYS_SETXATTRAT, dirfd, nativeName(scratch, name), atFlags(name), attribute, scratch.setArgsAddress,
          XATTR_ARGS_SIZE) == 0) {
        return;
      }
      int errno = Native.getLastError();
      if (errno != Errno.ENOSYS) {
        throw NativeIoException.of("setxattrat", path, errno);
      }
      xattrAtAvailable = false;
    }
    int fd = openPath(dirfd, name, path);
    try {
      Libc.setxattr(procPath(fd), attributeBytes, value, value.length, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("setxattr", path, e.getErrorCode());
    } finally {
      closeQuietly(fd);
    }
  }

  /**
   * Sends {@code message} as one datagram to the Unix socket {@code socketPath} (raw bytes; a
   * leading '@' names an abstract socket, as {@code $NOTIFY_SOCKET} writes it), from a socket
   * opened and closed for the purpose: the systemd notification protocol. It never blocks: when
   * the receiver's queue is full it fails with EAGAIN.
   */
  static void sendDatagram(byte[] socketPath, byte[] message) throws NativeIoException {
    boolean isAbstract = socketPath.length > 0 && socketPath[0] == '@';
    if (socketPath.length == 0 || socketPath.length >= SOCKADDR_UN_SIZE - 2) {
      throw NativeIoException.of("sendto", socketPath, Errno.EINVAL);
    }
    byte[] address = new byte[SOCKADDR_UN_SIZE];
    // sa_family_t in the machine's byte order; Linux runs little-endian on x86-64 and aarch64.
    address[0] = (byte) AF_UNIX;
    System.arraycopy(socketPath, 0, address, 2, socketPath.length);
    if (isAbstract) {
      address[2] = 0;
    }
    // An abstract name is exactly its bytes; a path ends at its NUL.
    int length = 2 + socketPath.length + (isAbstract ? 0 : 1);
    int fd;
    try {
      fd = Libc.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("socket", socketPath, e.getErrorCode());
    }
    try {
      // Never wait for a service manager that does not read: the message is dropped (EAGAIN).
      Libc.sendto(fd, message, message.length, MSG_NOSIGNAL | MSG_DONTWAIT, address, length);
    } catch (LastErrorException e) {
      throw NativeIoException.of("sendto", socketPath, e.getErrorCode());
    } finally {
      closeQuietly(fd);
    }
  }

  /**
   * mount(2) with {@code MS_BIND} and not {@code MS_REC}: the mount at {@code source} shown at
   * {@code target} too, without the mounts below it, so that what they cover shows (both paths
   * without their NUL).
   */
  static void bindMount(byte[] source, byte[] target) throws NativeIoException {
    try {
      Libc.mount(nul(source), nul(target), null, MS_BIND, null);
    } catch (LastErrorException e) {
      throw NativeIoException.of("mount", target, e.getErrorCode());
    }
  }

  /**
   * umount2(2) with {@code MNT_DETACH}: the mount at {@code target} (without its NUL) is taken off
   * at once, and freed once nothing holds it open.
   */
  static void detachMount(byte[] target) throws NativeIoException {
    try {
      Libc.umount2(nul(target), MNT_DETACH);
    } catch (LastErrorException e) {
      throw NativeIoException.of("umount", target, e.getErrorCode());
    }
  }

  /** {@code sync(2)}: every filesystem's dirty data to disk (before a reboot). */
  static void syncAll() {
    Libc.sync();
  }

  /** Whether label calls use {@code getxattrat}/{@code setxattrat} (false after ENOSYS, or getxattrat's EPERM). */
  static boolean usesXattrAt() {
    return xattrAtAvailable;
  }

  private static int atFlags(byte[] name) {
    return AT_SYMLINK_NOFOLLOW | (isEmptyName(name) ? AT_EMPTY_PATH : 0);
  }

  private static int openPath(int dirfd, byte[] name, byte[] path) throws NativeIoException {
    try {
      return Libc.openat(dirfd, nativeName(scratch(), isEmptyName(name) ? new byte[] {'.', 0} : name),
          O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
    } catch (LastErrorException e) {
      throw NativeIoException.of("openat", path, e.getErrorCode());
    }
  }

  private static byte[] procPath(int fd) {
    return nul(("/proc/self/fd/" + fd).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  /** The empty name, meaning "the descriptor itself". */
  static byte[] self() {
    return EMPTY.clone();
  }
}
