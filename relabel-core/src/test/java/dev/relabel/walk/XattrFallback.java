package dev.relabel.walk;

import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.TestErrno;

/**
 * Switches the native layer between {@code getxattrat}/{@code setxattrat} and the fallback an
 * older kernel gets ({@code O_PATH|O_NOFOLLOW} and {@code /proc/self/fd/N}), so both are tested on
 * any kernel. Test classes run one at a time; restore the setting when done.
 */
final class XattrFallback {
  private XattrFallback() {}

  /** Whether the *at calls are in use now. */
  static boolean usesXattrAt() {
    return Kernel.linux().usesXattrAt();
  }

  static void useXattrAt(boolean on) {
    TestErrno.useXattrAt(on);
  }
}
