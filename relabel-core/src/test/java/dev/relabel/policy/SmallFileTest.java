package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SmallFile}: java.io's read, with NIO's exceptions when the open fails. */
class SmallFileTest {
  @TempDir
  Path dir;

  @Test
  void readsEveryByte() throws IOException {
    byte[] content = new byte[70_000]; // many pages, every byte value
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    Path file = Files.write(dir.resolve("f"), content);
    assertArrayEquals(content, SmallFile.read(file));
    assertArrayEquals(new byte[0], SmallFile.read(Files.createFile(dir.resolve("empty"))));
  }

  @Test
  void readsProcfsWhoseSizeIsZero() throws IOException {
    // /proc files say size 0 and have content: the mount table is read this way.
    String mountinfo = new String(SmallFile.read(Path.of("/proc/self/mountinfo")));
    assertEquals(new String(Files.readAllBytes(Path.of("/proc/self/mountinfo"))).lines().count(),
        mountinfo.lines().count());
    assertFalse(mountinfo.isEmpty());
  }

  @Test
  void aMissingFileIsNoSuchFile() {
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> SmallFile.read(dir.resolve("absent")));
    assertEquals(dir.resolve("absent").toString(), e.getFile());
  }

  @Test
  void anotherFailureSaysWhyAsNioDoes() throws IOException {
    IOException nio = assertThrows(IOException.class, () -> Files.readAllBytes(dir));
    IOException ours = assertThrows(IOException.class, () -> SmallFile.read(dir));
    assertEquals(nio.getClass(), ours.getClass());
    assertEquals(nio.getMessage(), ours.getMessage());
  }
}
