import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * check-floor.c on the JVM: the same walk (the same system calls, in the same order, the same
 * stack of opened directories shared by -T threads, a path built per entry) written in Java, so
 * that the three floors split a check's cost: check-floor.c is the kernel's part, this floor's
 * {@code jni} mode adds the JVM's, its {@code jna} mode adds JNA's, and relabel adds its own work
 * (matching, deciding, reporting). `relabel-bench scaling --jvm-floors` compiles it with javac into
 * its scratch directory and runs it on relabel's own runtime, as `relabel-bench short` runs
 * ShortFloor.
 *
 *   WalkFloor jna [-T N] [-w LABEL] TREE   calls the C library through JNA's direct mapping with
 *                     native addresses, as relabel does: each name written once into native memory,
 *                     the status and the directory listing read back with one copy each
 *   WalkFloor jni [-T N] [-w LABEL] TREE   calls walk-floor-jni.c (built by relabel-bench), whose
 *                     functions take Java arrays: the floor of a relabel that shipped a JNI library
 *                     of its own (the library's path: the system property walk.floor.library)
 *
 * It prints the number of entries on stdout and, on stderr, which label calls it used, as
 * check-floor does (getxattrat, or lgetxattr on full paths where it is missing). Exit status 0, 1
 * if some entry could not be read or written (reported), 2 for a bad command line.
 */
public final class WalkFloor {
  private static final int O_DIRECTORY = 0200000;
  private static final int O_NOFOLLOW = 0400000;
  private static final int O_CLOEXEC = 02000000;
  private static final int AT_FDCWD = -100;
  private static final int AT_SYMLINK_NOFOLLOW = 0x100;
  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int ENODATA = 61;
  private static final int ENOSYS = 38;
  private static final int LISTING = 32768;
  private static final byte[] SELINUX = nul("security.selinux".getBytes(StandardCharsets.US_ASCII));

  /** The system calls of the walk; each returns -errno on failure. */
  interface Calls {
    int openDirectory(int dirfd, byte[] name);

    /** getdents64 into {@code into}; the bytes listed. */
    int list(int fd, byte[] into);

    /** fstatat's st_mode, not following a symlink. */
    int mode(int dirfd, byte[] name);

    /** getxattrat of security.selinux into {@code into}; its length. */
    long getLabel(int dirfd, byte[] name, byte[] into);

    /** setxattrat of security.selinux. */
    int setLabel(int dirfd, byte[] name, byte[] value);

    /** lgetxattr of security.selinux on a whole path: the fallback before Linux 6.13. */
    long getLabelByPath(byte[] path, byte[] into);

    int setLabelByPath(byte[] path, byte[] value);

    void closeDirectory(int fd);
  }

  /** An opened directory waiting to be listed, and its path. */
  private record Job(int fd, byte[] path) {}

  private static final ArrayDeque<Job> STACK = new ArrayDeque<>();
  private static int busy;
  private static volatile boolean useXattrAt = true;
  private static volatile boolean failed;
  private static byte[] written;

  public static void main(String[] args) throws InterruptedException {
    int threads = 1;
    int at = 1;
    if (args.length == 0 || !args[0].equals("jna") && !args[0].equals("jni")) {
      usage();
    }
    while (at < args.length - 1 && args[at].startsWith("-")) {
      if (args[at].equals("-T")) {
        threads = Integer.parseInt(args[at + 1]);
      } else if (args[at].equals("-w")) {
        written = nul(args[at + 1].getBytes(StandardCharsets.UTF_8));
      } else {
        usage();
      }
      at += 2;
    }
    if (at != args.length - 1 || threads < 1) {
      usage();
    }
    Calls calls = args[0].equals("jna") ? new Jna() : new Jni();
    byte[] root = args[at].getBytes(StandardCharsets.UTF_8);
    long entries = 1;
    if ((check(calls, AT_FDCWD, nul(root), root, new byte[4096]) & S_IFMT) == S_IFDIR) {
      int fd = calls.openDirectory(AT_FDCWD, nul(root));
      if (fd < 0) {
        problem(root, "openat", -fd);
      } else {
        STACK.push(new Job(fd, root));
        Worker[] workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
          workers[i] = new Worker(calls);
          if (i > 0) {
            workers[i].start();
          }
        }
        workers[0].run();
        for (int i = 0; i < threads; i++) {
          if (i > 0) {
            workers[i].join();
          }
          entries += workers[i].seen;
        }
      }
    }
    if (useXattrAt) {
      System.err.println("walk-floor: labels read" + (written == null ? "" : " and written") + " with "
          + (written == null ? "getxattrat" : "getxattrat and setxattrat") + " relative to each directory's descriptor ("
          + args[0] + ")");
    }
    System.out.println(entries);
    System.exit(failed ? 1 : 0);
  }

  private static void usage() {
    System.err.println("usage: WalkFloor jna|jni [-T N] [-w LABEL] TREE");
    System.exit(2);
  }

  /** One thread of the walk: lists directories from the stack until none is left. */
  private static final class Worker extends Thread {
    private final Calls calls;
    private final byte[] listing = new byte[LISTING];
    private final byte[] label = new byte[4096];
    long seen;

    Worker(Calls calls) {
      this.calls = calls;
    }

    @Override
    public void run() {
      Job job;
      while ((job = pop()) != null) {
        list(job);
        done();
      }
    }

    /** Lists one opened directory: checks each entry, opens and pushes each subdirectory. */
    private void list(Job job) {
      int n;
      while ((n = calls.list(job.fd(), listing)) > 0) {
        for (int at = 0; at < n;) {
          int length = (listing[at + 16] & 0xff) | (listing[at + 17] & 0xff) << 8;
          int end = at + 19;
          while (listing[end] != 0) {
            end++;
          }
          byte[] name = Arrays.copyOfRange(listing, at + 19, end + 1);
          at += length;
          if (name.length == 2 && name[0] == '.' || name.length == 3 && name[0] == '.' && name[1] == '.') {
            continue;
          }
          byte[] child = Arrays.copyOf(job.path(), job.path().length + name.length);
          child[job.path().length] = '/';
          System.arraycopy(name, 0, child, job.path().length + 1, name.length - 1);
          seen++;
          if ((check(calls, job.fd(), name, child, label) & S_IFMT) == S_IFDIR) {
            int fd = calls.openDirectory(job.fd(), name);
            if (fd >= 0) {
              push(new Job(fd, child));
            } else {
              problem(child, "openat", -fd);
            }
          }
        }
      }
      if (n < 0) {
        problem(job.path(), "getdents64", -n);
      }
      calls.closeDirectory(job.fd());
    }
  }

  /** One entry: its status and its label (and, with -w, the label written); its st_mode, 0 when unknown. */
  private static int check(Calls calls, int dirfd, byte[] name, byte[] path, byte[] label) {
    int mode = calls.mode(dirfd, name);
    if (mode < 0) {
      problem(path, "fstatat", -mode);
      return 0;
    }
    if (useXattrAt) {
      long got = calls.getLabel(dirfd, name, label);
      if (got >= 0 || got == -ENODATA) {
        int set = written == null ? 0 : calls.setLabel(dirfd, name, written);
        if (set < 0) {
          problem(path, "setxattrat", -set);
        }
        return mode;
      }
      if (got != -ENOSYS) {
        problem(path, "getxattrat", (int) -got);
        return mode;
      }
      useXattrAt = false;
      System.err.println("walk-floor: getxattrat: ENOSYS, reading labels with lgetxattr on full paths");
    }
    byte[] whole = nul(path);
    long got = calls.getLabelByPath(whole, label);
    if (got < 0 && got != -ENODATA) {
      problem(path, "lgetxattr", (int) -got);
    } else if (written != null) {
      int set = calls.setLabelByPath(whole, written);
      if (set < 0) {
        problem(path, "lsetxattr", -set);
      }
    }
    return mode;
  }

  private static void push(Job job) {
    synchronized (STACK) {
      STACK.push(job);
      STACK.notify();
    }
  }

  /** The next directory to list, or null when every directory has been listed. */
  private static Job pop() {
    synchronized (STACK) {
      while (STACK.isEmpty() && busy > 0) {
        try {
          STACK.wait();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
      if (STACK.isEmpty()) {
        STACK.notifyAll();
        return null;
      }
      busy++;
      return STACK.pop();
    }
  }

  private static void done() {
    synchronized (STACK) {
      if (--busy == 0 && STACK.isEmpty()) {
        STACK.notifyAll();
      }
    }
  }

  private static void problem(byte[] path, String call, int errno) {
    synchronized (System.err) {
      System.err.println("walk-floor: " + new String(path, StandardCharsets.UTF_8) + ": " + call + ": errno " + errno);
    }
    failed = true;
  }

  private static byte[] nul(byte[] bytes) {
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  /**
   * Through JNA's direct mapping, with native addresses as relabel's Libc passes them (a Pointer
   * argument costs JNA a JNI call of its own); errno from {@link Native#getLastError}.
   */
  static final class Jna implements Calls {
    private static final long SYS_SETXATTRAT = 463;
    private static final long SYS_GETXATTRAT = 464;
    private static final Memory SELINUX_NAME = new Memory(SELINUX.length);
    private static final long SELINUX_ADDRESS;

    static {
      Native.register(Jna.class, NativeLibrary.getInstance("libc.so.6"));
      SELINUX_NAME.write(0, SELINUX, 0, SELINUX.length);
      SELINUX_ADDRESS = Pointer.nativeValue(SELINUX_NAME);
    }

    static native int openat(int dirfd, long path, int flags, int mode);

    static native long getdents64(int fd, long buffer, long size);

    static native int fstatat(int dirfd, long path, long buffer, int flags);

    static native long syscall(long number, int dirfd, long path, int atFlags, long name, long args, long size);

    static native long lgetxattr(long path, long name, long value, long size);

    static native int lsetxattr(long path, long name, long value, long size, int flags);

    static native int close(int fd);

    /** The buffers of one thread: a name, a status, a listing, a label and xattrat's arguments. */
    private static final class Buffers {
      Memory name = new Memory(4096);
      final long nameAddress = Pointer.nativeValue(name);
      byte[] nameHeld = new byte[0];
      final Memory stat = new Memory(256);
      final byte[] statBytes = new byte[144];
      final Memory listing = new Memory(LISTING);
      final Memory label = new Memory(4096);
      final Memory args = new Memory(16);
      final Memory value = new Memory(4096);
    }

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);
    private static final int MODE_OFFSET = System.getProperty("os.arch").equals("aarch64") ? 16 : 24;

    /** {@code name} (NUL-terminated) in the thread's native name buffer, written once per entry. */
    private static long name(Buffers b, byte[] name) {
      if (name != b.nameHeld) {
        b.name.write(0, name, 0, name.length);
        b.nameHeld = name;
      }
      return b.nameAddress;
    }

    private static int errno() {
      return -Native.getLastError();
    }

    @Override
    public int openDirectory(int dirfd, byte[] name) {
      int fd = openat(dirfd, name(BUFFERS.get(), name), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
      return fd < 0 ? errno() : fd;
    }

    @Override
    public int list(int fd, byte[] into) {
      Buffers b = BUFFERS.get();
      long n = getdents64(fd, Pointer.nativeValue(b.listing), into.length);
      if (n < 0) {
        return errno();
      }
      b.listing.read(0, into, 0, (int) n);
      return (int) n;
    }

    @Override
    public int mode(int dirfd, byte[] name) {
      Buffers b = BUFFERS.get();
      if (fstatat(dirfd, name(b, name), Pointer.nativeValue(b.stat), AT_SYMLINK_NOFOLLOW) != 0) {
        return errno();
      }
      // The whole status, as relabel copies it (one JNI call, then fields from the heap).
      b.stat.read(0, b.statBytes, 0, b.statBytes.length);
      byte[] s = b.statBytes;
      return (s[MODE_OFFSET] & 0xff) | (s[MODE_OFFSET + 1] & 0xff) << 8 | (s[MODE_OFFSET + 2] & 0xff) << 16;
    }

    @Override
    public long getLabel(int dirfd, byte[] name, byte[] into) {
      Buffers b = BUFFERS.get();
      b.args.setLong(0, Pointer.nativeValue(b.label));
      b.args.setLong(8, 256);
      long n = syscall(SYS_GETXATTRAT, dirfd, name(b, name), AT_SYMLINK_NOFOLLOW, SELINUX_ADDRESS,
          Pointer.nativeValue(b.args), 16);
      if (n < 0) {
        return errno();
      }
      b.label.read(0, into, 0, (int) n);
      return n;
    }

    @Override
    public int setLabel(int dirfd, byte[] name, byte[] value) {
      Buffers b = BUFFERS.get();
      b.value.write(0, value, 0, value.length);
      b.args.setLong(0, Pointer.nativeValue(b.value));
      b.args.setLong(8, value.length);
      long n = syscall(SYS_SETXATTRAT, dirfd, name(b, name), AT_SYMLINK_NOFOLLOW, SELINUX_ADDRESS,
          Pointer.nativeValue(b.args), 16);
      return n < 0 ? errno() : 0;
    }

    @Override
    public long getLabelByPath(byte[] path, byte[] into) {
      Buffers b = BUFFERS.get();
      Memory whole = new Memory(path.length);
      whole.write(0, path, 0, path.length);
      long n = lgetxattr(Pointer.nativeValue(whole), SELINUX_ADDRESS, Pointer.nativeValue(b.label), 4096);
      if (n < 0) {
        return errno();
      }
      b.label.read(0, into, 0, (int) n);
      return n;
    }

    @Override
    public int setLabelByPath(byte[] path, byte[] value) {
      Buffers b = BUFFERS.get();
      Memory whole = new Memory(path.length);
      whole.write(0, path, 0, path.length);
      b.value.write(0, value, 0, value.length);
      return lsetxattr(Pointer.nativeValue(whole), SELINUX_ADDRESS, Pointer.nativeValue(b.value), value.length, 0) != 0
          ? errno() : 0;
    }

    @Override
    public void closeDirectory(int fd) {
      close(fd);
    }
  }

  /** Through walk-floor-jni.c: each function takes the Java arrays and returns -errno on failure. */
  static final class Jni implements Calls {
    static {
      System.load(System.getProperty("walk.floor.library"));
    }

    static native int openDirectory0(int dirfd, byte[] name);

    static native int list0(int fd, byte[] into);

    static native int mode0(int dirfd, byte[] name);

    static native long getLabel0(int dirfd, byte[] name, byte[] into);

    static native int setLabel0(int dirfd, byte[] name, byte[] value);

    static native long getLabelByPath0(byte[] path, byte[] into);

    static native int setLabelByPath0(byte[] path, byte[] value);

    static native void close0(int fd);

    @Override
    public int openDirectory(int dirfd, byte[] name) {
      return openDirectory0(dirfd, name);
    }

    @Override
    public int list(int fd, byte[] into) {
      return list0(fd, into);
    }

    @Override
    public int mode(int dirfd, byte[] name) {
      return mode0(dirfd, name);
    }

    @Override
    public long getLabel(int dirfd, byte[] name, byte[] into) {
      return getLabel0(dirfd, name, into);
    }

    @Override
    public int setLabel(int dirfd, byte[] name, byte[] value) {
      return setLabel0(dirfd, name, value);
    }

    @Override
    public long getLabelByPath(byte[] path, byte[] into) {
      return getLabelByPath0(path, into);
    }

    @Override
    public int setLabelByPath(byte[] path, byte[] value) {
      return setLabelByPath0(path, value);
    }

    @Override
    public void closeDirectory(int fd) {
      close0(fd);
    }
  }
}
