package dev.relabel.nativeio;

import java.lang.reflect.Field;

/**
 * For test trees that stand in for the native one: the exception the native layer would throw for
 * an errno (a typed subclass where one exists), so the walker reacts to them as it does on disk;
 * and the switches between the xattr calls and their fallback, and read-ahead on and off, which
 * only tests turn.
 */
public final class TestErrno {
  private TestErrno() {}

  public static NativeIoException exception(String operation, byte[] path, int errno) {
    return NativeIoException.of(operation, path, errno);
  }

  /** Forces the {@code *at} xattr calls on or off (off: the fallback a kernel before 6.13 gets). */
  public static void useXattrAt(boolean on) {
    set("xattrAtAvailable", on);
  }

  /** Turns librelabel's read-ahead on (where it is loaded) or off (every entry read by its own calls). */
  public static void useReadAhead(boolean on) {
    set("readAheadWanted", on);
  }

  /** Whether directory listings read ahead now: librelabel loaded and read-ahead on. */
  public static boolean readsAhead() {
    return NativeIo.readsAhead();
  }

  private static void set(String switchField, boolean on) {
    try {
      Field field = NativeIo.class.getDeclaredField(switchField);
      field.setAccessible(true);
      field.setBoolean(null, on);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot switch " + switchField, e);
    }
  }
}
