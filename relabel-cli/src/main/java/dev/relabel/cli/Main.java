package dev.relabel.cli;

import dev.relabel.cli.common.Io;
import dev.relabel.nativeio.Kernel;

/**
 * {@code relabel}'s entry (the jar's {@code Main-Class}): a class without picocli, so that a run the
 * {@link QuickPath} takes loads none of it ({@link RelabelCommand}, whose methods name picocli's
 * types, has the JVM load some of them as soon as it is linked).
 */
public final class Main {
  private Main() {}

  /**
   * Begins JNA's initialisation on a thread of its own for the verbs that reach the kernel (it
   * overlaps the reading of the options and of the policy), then runs {@code args} on the quick
   * path when it takes them, on picocli's otherwise. The arguments are the bytes the process received
   * ({@link Arguments}), not the JDK's decoding of them.
   */
  public static void main(String[] decoded) {
    // The verb's name is ASCII, the same in the JDK's decoding: JNA's start begins first.
    if (decoded.length > 0 && reachesKernel(decoded[0])) {
      Kernel.warmUp();
    }
    String[] args = Arguments.lossless(decoded);
    Io io = Io.system();
    Integer status = QuickPath.run(args, io);
    System.exit(status != null ? status : RelabelCommand.execute(io, args));
  }

  /** Whether the verb {@code name} reaches the kernel (through JNA) when it runs. */
  static boolean reachesKernel(String name) {
    return switch (name) {
      case "setfiles", "restorecon", "chcon", "restore", "check", "verify", "relabel", "onboot", "autorelabel", "plan",
          "tar", "demo" -> true;
      default -> false;
    };
  }
}
