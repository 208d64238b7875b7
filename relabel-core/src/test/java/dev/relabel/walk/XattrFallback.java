package dev.relabel.walk;

import dev.relabel.nativeio.NativeIo;
import java.lang.reflect.Field;

/**
 * Switches the native layer between {@code getxattrat}/{@code setxattrat} and the fallback an
 * older kernel gets ({@code O_PATH|O_NOFOLLOW} and {@code /proc/self/fd/N}), so both are tested on
 * any kernel. Test classes run one at a time; restore the setting when done.
 */
final class XattrFallback {
  private XattrFallback() {}

  /** Whether the *at calls are in use now. */
  static boolean usesXattrAt() {
    return NativeIo.usesXattrAt();
  }

  static void useXattrAt(boolean on) {
    try {
      Field field = NativeIo.class.getDeclaredField("xattrAtAvailable");
      field.setAccessible(true);
      field.setBoolean(null, on);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot switch the xattr calls", e);
    }
  }
}
