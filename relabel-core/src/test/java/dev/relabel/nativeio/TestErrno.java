package dev.relabel.nativeio;

/**
 * For test trees that stand in for the native one: the exception the native layer would throw for
 * an errno (a typed subclass where one exists), so the walker reacts to them as it does on disk.
 */
public final class TestErrno {
  private TestErrno() {}

  public static NativeIoException exception(String operation, byte[] path, int errno) {
    return NativeIoException.of(operation, path, errno);
  }
}
