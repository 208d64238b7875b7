package dev.relabel.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.jna.LastErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link NativeIoTest} again, with {@link Libc}'s calls through JNA's Functions (the
 * way a short run makes them before the direct mapping is bound, {@link WarmUp}): both ways must
 * answer alike, errors included.
 */
class NativeIoThroughFunctionsTest extends NativeIoTest {
  @BeforeEach
  void throughFunctions() {
    Libc.initialise(); // bound once, as any first use without a warm-up binds
    Libc.direct = false;
  }

  @AfterEach
  void bound() {
    Libc.direct = true;
  }

  @Test
  void callsGoThroughFunctions() {
    assertFalse(Libc.direct);
    // close(-1): EBADF, thrown by the Function's way as the direct mapping throws it.
    LastErrorException thrown = assertThrows(LastErrorException.class, () -> Libc.close(-1));
    assertEquals(Errno.EBADF, thrown.getErrorCode());
    assertEquals("No such file or directory", Libc.strerror(Errno.ENOENT));
  }
}
