package dev.relabel.walk;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.relabel.nativeio.TestErrno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link NativeWalkTest} again with librelabel's read-ahead off: each entry's status
 * and label read by its own calls, as a library caller without librelabel walks. Both ways must
 * label, report and fail alike.
 */
class NativeWalkWithoutReadAheadTest extends NativeWalkTest {
  @BeforeEach
  void readAheadOff() {
    TestErrno.useReadAhead(false);
  }

  @AfterEach
  void readAheadOn() {
    TestErrno.useReadAhead(true);
  }

  @Test
  void readAheadIsOff() {
    assertFalse(TestErrno.readsAhead());
  }
}
