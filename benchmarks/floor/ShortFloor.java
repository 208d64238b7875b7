import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.nio.charset.StandardCharsets;

/**
 * The floor of a one-file relabel run on the JVM, as check-floor.c is the floor of a check:
 * `relabel-bench short` compiles it with javac into its scratch directory and runs it on relabel's
 * own runtime (the launcher's JIT and collector flags, relabel.jar first on the class path, JNA's
 * native library as bin/relabel passes it, and a class data sharing archive of its own classes,
 * made as relabel's is).
 *
 *   ShortFloor jar FILE   prints FILE: the JVM's start with relabel.jar and its archive, no more
 *   ShortFloor jna FILE   also reads FILE's security.selinux through JNA (one lgetxattr, through a
 *                         JNA Function: JNA's cheapest start, with no direct mapping to bind), as
 *                         any JVM program must that asks the kernel for a label on Java 17
 *   ShortFloor jni FILE LIB  reads it through a JNI library of one function instead
 *                         (short-floor-jni.c, built by relabel-bench into LIB): the floor of a
 *                         relabel that would ship a JNI library of its own instead of using JNA
 *
 * No policy, no options, no matching: what relabel restorecon -n FILE can never go below.
 */
public final class ShortFloor {
  /** short-floor-jni.c's one function, for the {@code jni} mode. */
  static native long lgetxattr(byte[] path, byte[] name, byte[] value);

  public static void main(String[] args) {
    byte[] path = args[1].getBytes(StandardCharsets.UTF_8);
    String label = "";
    if (args[0].equals("jna")) {
      Function lgetxattr = NativeLibrary.getInstance("libc.so.6").getFunction("lgetxattr");
      byte[] value = new byte[256];
      long length = lgetxattr.invokeLong(new Object[] {nul(path), selinux(), value, (long) value.length});
      label = shown(value, length);
    } else if (args[0].equals("jni")) {
      System.load(args[2]);
      byte[] value = new byte[256];
      label = shown(value, lgetxattr(nul(path), selinux(), value));
    }
    System.out.println(args[1] + label);
  }

  /** The attribute's name, NUL-terminated: made in the modes that read it, not in the jar floor's. */
  private static byte[] selinux() {
    return nul("security.selinux".getBytes(StandardCharsets.US_ASCII));
  }

  /** The label as printed after the path: " (null)" when there is none. */
  private static String shown(byte[] value, long length) {
    return length <= 0 ? " (null)" : " " + new String(value, 0, (int) length, StandardCharsets.UTF_8).trim();
  }

  private static byte[] nul(byte[] bytes) {
    byte[] terminated = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, terminated, 0, bytes.length);
    return terminated;
  }
}
