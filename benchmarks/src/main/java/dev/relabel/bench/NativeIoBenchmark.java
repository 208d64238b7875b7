package dev.relabel.bench;

import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The system calls a relabel makes per entry, through the engine's one native layer
 * ({@link Kernel}, JNA): listing a directory (openat + getdents64 + close, per entry listed),
 * reading a label (getxattr), writing one (setxattr), and statx, in a directory of
 * {@value #FILES} empty files on the machine's filesystem (page cache warm). Nanoseconds per entry,
 * to set beside {@code LookupBenchmark}'s cost per lookup.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m", "-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class NativeIoBenchmark {
  private static final Kernel KERNEL = Kernel.linux();

  static final int FILES = 1000;
  private static final byte[] LABEL_A = Kernel.nul("system_u:object_r:usr_t:s0".getBytes(StandardCharsets.US_ASCII));
  private static final byte[] LABEL_B = Kernel.nul("system_u:object_r:bin_t:s0".getBytes(StandardCharsets.US_ASCII));

  /** Where the scratch directory goes: a filesystem that takes security.selinux xattrs. */
  @Param({"/var/tmp"})
  public String parent;

  Path dir;
  byte[] dirPath;
  int dirFd;
  byte[][] names;
  int next;
  boolean flip;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory(Path.of(parent), "relabel-nativeio-");
    dirPath = Kernel.nul(dir.toString().getBytes(StandardCharsets.UTF_8));
    dirFd = KERNEL.openDirectory(Kernel.AT_FDCWD, dirPath, dirPath);
    names = new byte[FILES][];
    for (int i = 0; i < FILES; i++) {
      String name = String.format("file-%04d.so.1", i);
      Files.createFile(dir.resolve(name));
      names[i] = Kernel.nul(name.getBytes(StandardCharsets.US_ASCII));
      KERNEL.setLabel(dirFd, names[i], LABEL_A, names[i]);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    KERNEL.close(dirFd);
    for (byte[] name : names) {
      Files.deleteIfExists(dir.resolve(new String(name, 0, name.length - 1, StandardCharsets.US_ASCII)));
    }
    Files.deleteIfExists(dir);
  }

  private byte[] nextName() {
    byte[] name = names[next];
    next = next + 1 == FILES ? 0 : next + 1;
    return name;
  }

  /** openat(O_NOFOLLOW|O_DIRECTORY) + getdents64 until the end + close, per entry listed. */
  @Benchmark
  @OperationsPerInvocation(FILES)
  public int listDirectory() throws IOException {
    int fd = KERNEL.openDirectory(Kernel.AT_FDCWD, dirPath, dirPath);
    try {
      return KERNEL.readDirectory(fd, dirPath).size();
    } finally {
      KERNEL.close(fd);
    }
  }

  /** getxattr("security.selinux") of one entry, relative to its directory's descriptor. */
  @Benchmark
  public byte[] getLabel() throws IOException {
    byte[] name = nextName();
    return KERNEL.getLabel(dirFd, name, name);
  }

  /** setxattr("security.selinux") of one entry, alternating two labels so every write changes it. */
  @Benchmark
  public void setLabel() throws IOException {
    byte[] name = nextName();
    if (next == 0) {
      flip = !flip;
    }
    KERNEL.setLabel(dirFd, name, flip ? LABEL_B : LABEL_A, name);
  }

  /** statx of one entry (the engine's stat when the listing gives no type, or for hard links). */
  @Benchmark
  public FileStat stat() throws IOException {
    byte[] name = nextName();
    return KERNEL.stat(dirFd, name, name);
  }
}
