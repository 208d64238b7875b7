package dev.relabel.nativeio;

import com.sun.jna.Function;
import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The C library's functions {@link NativeIo} calls, and the two ways JNA reaches them. Bound with
 * JNA's direct mapping ({@link Direct}), a call costs least (a walk makes two per entry); but the
 * binding itself costs about 25 ms in a cold JVM (JNA's {@code FFIType} structures, whose
 * {@code @FieldOrder} annotations the JDK reads by generating proxy classes, and the registration of
 * each method): a fifth of a one-file restorecon. So after a {@link WarmUp}, calls go through JNA
 * {@link Function}s looked up by name (no binding; about a microsecond more per call) until
 * {@value #BIND_AFTER} of them have been made, which begins the binding on a thread of its own;
 * once it is bound, every call goes through it. A run of a few calls never binds; a walk switches
 * within its first milliseconds, without waiting. Without a warm-up (a library caller), the class
 * binds at once, as its first use always did.
 *
 * <p>Both ways give the same results: a failed call returns -1 and JNA keeps the thread's errno
 * ({@link Native#getLastError}); the methods declared to throw {@link LastErrorException} throw it
 * with that errno either way.
 */
final class Libc {
  /**
   * glibc by its soname, which the dynamic loader finds: JNA, given "c", looks for libc.so, which
   * only a development package installs (as a linker script), and then searches the paths of
   * {@code ldconfig -p}. With the launcher's empty jna.platform.library.path it then runs no
   * ldconfig at start (seen in the SELinux VM: jspawnhelper executing ldconfig from relabel_t).
   */
  private static final String GLIBC = "libc.so.6";

  private static final NativeLibrary LIBRARY = open();

  private static final Function OPENAT = LIBRARY.getFunction("openat");
  private static final Function CLOSE = LIBRARY.getFunction("close");
  private static final Function UNLINKAT = LIBRARY.getFunction("unlinkat");
  private static final Function GETDENTS64 = LIBRARY.getFunction("getdents64");
  private static final Function STATX = LIBRARY.getFunction("statx");
  private static final Function SYSCALL = LIBRARY.getFunction("syscall");
  private static final Function GETXATTR = LIBRARY.getFunction("getxattr");
  private static final Function SETXATTR = LIBRARY.getFunction("setxattr");
  private static final Function FSTATFS = LIBRARY.getFunction("fstatfs");
  private static final Function STATFS = LIBRARY.getFunction("statfs");
  private static final Function ISATTY = LIBRARY.getFunction("isatty");
  private static final Function STRERROR = LIBRARY.getFunction("strerror");
  private static final Function SYNC = LIBRARY.getFunction("sync");
  private static final Function SOCKET = LIBRARY.getFunction("socket");
  private static final Function SENDTO = LIBRARY.getFunction("sendto");
  private static final Function REALPATH = LIBRARY.getFunction("realpath");
  private static final Function MOUNT = LIBRARY.getFunction("mount");
  private static final Function UMOUNT2 = LIBRARY.getFunction("umount2");

  /**
   * Whether {@link Direct} is bound, so that every call goes through it. Package-private so that
   * {@code NativeIoThroughFunctionsTest} can run {@link NativeIo}'s tests the other way.
   */
  static volatile boolean direct;

  /** Calls through Functions after which binding {@link Direct} pays: a walk's first 32 entries. */
  static final int BIND_AFTER = 64;
  /**
   * Calls made through Functions. Counted without synchronisation: a lost count only delays the
   * binding by a call, and {@link #beginBinding} begins it once however many see the threshold.
   */
  private static int functionCalls;
  /** Whether the binding has begun; guarded by Libc.class. */
  private static boolean bindingBegun;

  static {
    if (!(Thread.currentThread() instanceof WarmUp)) {
      bindingBegun = true;
      bind();
    }
  }

  private Libc() {}

  private static NativeLibrary open() {
    try {
      return NativeLibrary.getInstance(GLIBC);
    } catch (UnsatisfiedLinkError notGlibc) {
      return NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
    }
  }

  /** Nothing but this class's initialisation: the library opened and its functions found. */
  static void initialise() {}

  /** Binds {@link Direct} (its class initialisation) and sends every later call through it. */
  static void bind() {
    Direct.initialise();
    if (Own.LIBRARY != null) {
      OwnDirect.initialise();
    }
    direct = true;
  }

  /** Counts a call through a Function, and begins the binding at the {@value #BIND_AFTER}th. */
  private static void counted() {
    if (++functionCalls >= BIND_AFTER && !bindingBegun) { // a stale false only takes the lock
      beginBinding();
    }
  }

  private static void beginBinding() {
    synchronized (Libc.class) {
      if (!bindingBegun) {
        bindingBegun = true;
        new Binding().start();
      }
    }
  }

  /** The binding of {@link Direct} while calls go on through Functions. */
  private static final class Binding extends Thread {
    Binding() {
      super("relabel-jna-bind");
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        bind();
      } catch (Throwable t) {
        // Calls stay on Functions, which give the same results, a little slower each.
      }
    }
  }

  /*
   * The calls a walk makes per entry and per directory take native addresses as {@code long}, not
   * {@link Pointer}: JNA's dispatcher reads a Pointer argument's address with a JNI call, one per
   * argument per call. Every address passed is that of a {@link com.sun.jna.Memory} that NativeIo
   * keeps reachable (a static field or the thread's scratch buffers), so none is freed during a call.
   */

  /** JNA's direct mapping of the same functions, registered by its class initialisation. */
  private static final class Direct {
    static {
      Native.register(Direct.class, LIBRARY);
    }

    static void initialise() {}

    static native int openat(int dirfd, long path, int flags, int mode) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native int unlinkat(int dirfd, long path, int flags) throws LastErrorException;

    static native long getdents64(int fd, long buffer, long size) throws LastErrorException;

    static native int statx(int dirfd, long path, int flags, int mask, long buffer) throws LastErrorException;

    static native long syscall(long number, int dirfd, long path, int atFlags, long name, long args, long size);

    static native long syscall(long number, int dirfd, long path, long how, long size);

    static native long getxattr(byte[] path, byte[] name, Pointer value, long size);

    static native int setxattr(byte[] path, byte[] name, byte[] value, long size, int flags)
        throws LastErrorException;

    static native int fstatfs(int fd, Pointer buffer) throws LastErrorException;

    static native int statfs(byte[] path, Pointer buffer) throws LastErrorException;

    static native int isatty(int fd);

    static native String strerror(int errno);

    static native void sync();

    static native int socket(int domain, int type, int protocol) throws LastErrorException;

    static native long sendto(int fd, byte[] buffer, long length, int flags, byte[] address, int addressLength)
        throws LastErrorException;

    static native Pointer realpath(byte[] path, byte[] resolved);

    static native int mount(byte[] source, byte[] target, byte[] type, long flags, Pointer data)
        throws LastErrorException;

    static native int umount2(byte[] target, int flags) throws LastErrorException;
  }

  /**
   * relabel's own library, librelabel (relabel-core/src/main/c/relabel.c), opened from the file the
   * system property {@value Kernel#LIBRELABEL_PROPERTY} names (bin/relabel names the one built or
   * installed beside the jar). Without it, or where it cannot be opened (a build without a C
   * compiler's output, another architecture's file), {@link #LIBRARY} is null and every entry is
   * read through the C library's calls, with the same results, slower. Opened at its first use,
   * the first directory a walk lists: a one-file run never opens it.
   */
  private static final class Own {
    static final NativeLibrary LIBRARY = open();
    static final Function READ_AHEAD = LIBRARY == null ? null : LIBRARY.getFunction("relabel_read_ahead");

    private static NativeLibrary open() {
      String file = System.getProperty(Kernel.LIBRELABEL_PROPERTY, "");
      if (file.isEmpty()) {
        return null;
      }
      try {
        return NativeLibrary.getInstance(file);
      } catch (UnsatisfiedLinkError notLoadable) {
        return null;
      }
    }
  }

  /** librelabel's direct mapping, bound with {@link Direct}'s: before that, its calls go through a Function. */
  private static final class OwnDirect {
    static {
      Native.register(OwnDirect.class, Own.LIBRARY);
    }

    static void initialise() {}

    static native long relabel_read_ahead(int dirfd, long dirents, long length, long start, long out, long outSize,
        long attribute, int xattrAt);
  }

  /** Whether librelabel is loaded, so that {@link #readAhead} may be called. */
  static boolean hasOwnLibrary() {
    return Own.LIBRARY != null;
  }

  /** librelabel's {@code relabel_read_ahead} (see relabel.c): the bytes written, or -errno for arguments it refuses. */
  static long readAhead(int dirfd, long dirents, long length, long start, long out, long outSize, long attribute,
      boolean xattrAt) {
    int xattrAtFlag = xattrAt ? 1 : 0;
    return direct
        ? OwnDirect.relabel_read_ahead(dirfd, dirents, length, start, out, outSize, attribute, xattrAtFlag)
        : callLong(Own.READ_AHEAD, dirfd, dirents, length, start, out, outSize, attribute, xattrAtFlag);
  }

  /** {@code function}'s int result, the call counted ({@link #counted}). */
  private static int callInt(Function function, Object... arguments) {
    counted();
    return function.invokeInt(arguments);
  }

  /** {@code function}'s long result, the call counted ({@link #counted}). */
  private static long callLong(Function function, Object... arguments) {
    counted();
    return function.invokeLong(arguments);
  }

  /** A {@link Function}'s -1 as the direct mapping's {@code throws LastErrorException} makes it. */
  private static int orThrow(int result) {
    if (result == -1) {
      throw new LastErrorException(Native.getLastError());
    }
    return result;
  }

  private static long orThrow(long result) {
    if (result == -1) {
      throw new LastErrorException(Native.getLastError());
    }
    return result;
  }

  static int openat(int dirfd, long path, int flags, int mode) throws LastErrorException {
    return direct
        ? Direct.openat(dirfd, path, flags, mode)
        : orThrow(callInt(OPENAT, dirfd, path, flags, mode));
  }

  static int close(int fd) throws LastErrorException {
    return direct ? Direct.close(fd) : orThrow(callInt(CLOSE, fd));
  }

  static int unlinkat(int dirfd, long path, int flags) throws LastErrorException {
    return direct ? Direct.unlinkat(dirfd, path, flags) : orThrow(callInt(UNLINKAT, dirfd, path, flags));
  }

  static long getdents64(int fd, long buffer, long size) throws LastErrorException {
    return direct
        ? Direct.getdents64(fd, buffer, size)
        : orThrow(callLong(GETDENTS64, fd, buffer, size));
  }

  static int statx(int dirfd, long path, int flags, int mask, long buffer) throws LastErrorException {
    return direct
        ? Direct.statx(dirfd, path, flags, mask, buffer)
        : orThrow(callInt(STATX, dirfd, path, flags, mask, buffer));
  }

  /**
   * {@code syscall(2)} for getxattrat and setxattrat: -1 and errno ({@link Native#getLastError},
   * which JNA keeps per thread) instead of a LastErrorException, because an unlabelled entry
   * (ENODATA: every entry of a system that was never labelled) is no error, and building one
   * exception with its stack trace per entry cost more than the call itself.
   */
  static long syscall(long number, int dirfd, long path, int atFlags, long name, long args, long size) {
    return direct
        ? Direct.syscall(number, dirfd, path, atFlags, name, args, size)
        : callLong(SYSCALL, number, dirfd, path, atFlags, name, args, size);
  }

  /** {@code syscall(2)} for openat2: -1 and errno, as above. */
  static long syscall(long number, int dirfd, long path, long how, long size) {
    return direct
        ? Direct.syscall(number, dirfd, path, how, size)
        : callLong(SYSCALL, number, dirfd, path, how, size);
  }

  /** As {@link #syscall}: -1 and errno, for the same reason (kernels before 6.13 read labels with it). */
  static long getxattr(byte[] path, byte[] name, Pointer value, long size) {
    return direct
        ? Direct.getxattr(path, name, value, size)
        : callLong(GETXATTR, path, name, value, size);
  }

  /**
   * {@code realpath(3)} into {@code resolved} (PATH_MAX bytes): null and errno when it fails. Not
   * declared to throw: realpath leaves errno set by the readlink calls it makes on every component
   * that is no symlink, even when it succeeds.
   */
  static Pointer realpath(byte[] path, byte[] resolved) {
    if (direct) {
      return Direct.realpath(path, resolved);
    }
    counted();
    return REALPATH.invokePointer(new Object[] {path, resolved});
  }

  static int setxattr(byte[] path, byte[] name, byte[] value, long size, int flags) throws LastErrorException {
    return direct
        ? Direct.setxattr(path, name, value, size, flags)
        : orThrow(callInt(SETXATTR, path, name, value, size, flags));
  }

  static int fstatfs(int fd, Pointer buffer) throws LastErrorException {
    return direct ? Direct.fstatfs(fd, buffer) : orThrow(callInt(FSTATFS, fd, buffer));
  }

  static int statfs(byte[] path, Pointer buffer) throws LastErrorException {
    return direct ? Direct.statfs(path, buffer) : orThrow(callInt(STATFS, path, buffer));
  }

  static int isatty(int fd) {
    return direct ? Direct.isatty(fd) : callInt(ISATTY, fd);
  }

  static String strerror(int errno) {
    if (direct) {
      return Direct.strerror(errno);
    }
    counted();
    return STRERROR.invokeString(new Object[] {errno}, false);
  }

  static void sync() {
    if (direct) {
      Direct.sync();
    } else {
      counted();
      SYNC.invokeVoid(new Object[0]);
    }
  }

  static int mount(byte[] source, byte[] target, byte[] type, long flags, Pointer data) throws LastErrorException {
    return direct
        ? Direct.mount(source, target, type, flags, data)
        : orThrow(callInt(MOUNT, source, target, type, flags, data));
  }

  static int umount2(byte[] target, int flags) throws LastErrorException {
    return direct ? Direct.umount2(target, flags) : orThrow(callInt(UMOUNT2, target, flags));
  }

  static int socket(int domain, int type, int protocol) throws LastErrorException {
    return direct
        ? Direct.socket(domain, type, protocol)
        : orThrow(callInt(SOCKET, domain, type, protocol));
  }

  static long sendto(int fd, byte[] buffer, long length, int flags, byte[] address, int addressLength)
      throws LastErrorException {
    return direct
        ? Direct.sendto(fd, buffer, length, flags, address, addressLength)
        : orThrow(callLong(SENDTO, fd, buffer, length, flags, address, addressLength));
  }
}
