package dev.relabel.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WholeFileTest {
  @TempDir Path dir;

  @Test
  void theFileIsReplacedWithTheModeAskedForAndWhatTheBodyReturnsComesBack() throws IOException {
    Path file = Files.writeString(dir.resolve("out"), "old");
    List<Path> temporaries = new java.util.ArrayList<>();
    String result = WholeFile.write(file, PosixFilePermissions.fromString("rw-r-----"), (out, temporary) -> {
      temporaries.add(temporary);
      out.write("new".getBytes(StandardCharsets.US_ASCII));
      // the contents go to the temporary, hidden beside the file; the file is untouched meanwhile
      assertEquals(dir, temporary.getParent());
      assertTrue(temporary.getFileName().toString().startsWith(".out."), temporary::toString);
      assertEquals("old", Files.readString(file));
      return "done";
    });
    assertEquals("done", result);
    assertEquals("new", Files.readString(file));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertFalse(Files.exists(temporaries.get(0)));
    assertNothingBeside("out");
  }

  @Test
  void aBodyThatFailsLeavesTheFileAsItWasAndNoTemporary() throws IOException {
    Path file = Files.writeString(dir.resolve("out"), "old");
    IOException thrown = assertThrows(IOException.class, () -> WholeFile.write(file, WholeFile.READABLE, (out, temporary) -> {
      out.write(new byte[100_000]);
      throw new IOException("the archive ends inside a member");
    }));
    assertEquals("the archive ends inside a member", thrown.getMessage());
    assertEquals("old", Files.readString(file));
    assertNothingBeside("out");
    assertThrows(IllegalStateException.class, () -> WholeFile.write(file, WholeFile.READABLE, (out, temporary) -> {
      throw new IllegalStateException("a bug");
    }));
    assertNothingBeside("out");
  }

  @Test
  void aDirectoryThatIsNotThereIsTheFilesProblemNotTheTemporarys() {
    Path file = dir.resolve("absent/out");
    NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> WholeFile.write(file, new byte[] {1}));
    assertEquals(file.toString(), missing.getFile());
  }

  @Test
  void aNameTheLocaleCannotDecodeIsWritten() throws IOException {
    byte[] name = (dir + "/caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);
    Path latin1 = PathBytes.path(PathBytes.text(name));
    assertFalse(PathBytes.textNames(latin1), "needs a locale that cannot decode 0xe9");
    WholeFile.write(latin1, new byte[] {42});
    try (Stream<Path> files = Files.list(dir)) {
      Path listed = files.findFirst().orElseThrow();
      assertArrayEquals(name, PathBytes.of(listed));
      assertEquals(List.of(42), readBytes(listed));
    }
    assertNothingBeside(latin1.getFileName().toString());
  }

  private static List<Integer> readBytes(Path file) throws IOException {
    List<Integer> bytes = new java.util.ArrayList<>();
    for (byte b : Files.readAllBytes(file)) {
      bytes.add((int) b);
    }
    return bytes;
  }

  private void assertNothingBeside(String name) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(name), files.map(p -> p.getFileName().toString()).toList());
    }
  }
}
