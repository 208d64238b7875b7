package dev.relabel.bench.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** What {@code relabel-bench scaling} says when it stops on an error. */
class ScalingCommandTest {
  @Test
  void aFileErrorSaysWhatWentWrongNotOnlyThePath() {
    assertEquals("/var/tmp/gone/relabel-bench-1: no such file or directory",
        ScalingCommand.message(new NoSuchFileException("/var/tmp/gone/relabel-bench-1")));
    assertEquals("/x: Read-only file system", ScalingCommand.message(new FileSystemException("/x", null, "Read-only file system")));
    assertEquals("the floor counted 3 entries", ScalingCommand.message(new IOException("the floor counted 3 entries")));
  }
}
