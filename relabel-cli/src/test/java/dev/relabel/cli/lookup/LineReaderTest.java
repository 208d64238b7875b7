package dev.relabel.cli.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {
  private static List<String> lines(InputStream in) throws IOException {
    LineReader reader = new LineReader(in, () -> {});
    List<String> lines = new ArrayList<>();
    while (reader.next()) {
      lines.add(new String(reader.buffer(), reader.start(), reader.end() - reader.start(), StandardCharsets.ISO_8859_1));
    }
    return lines;
  }

  private static List<String> lines(String text) throws IOException {
    return lines(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)));
  }

  @Test
  void splitsAtNewlineOnly() throws IOException {
    assertEquals(List.of("a\r", "b\tc", "", "\u00ff"), lines("a\r\nb\tc\n\n\u00ff\n"));
  }

  @Test
  void lastLineNeedsNoNewline() throws IOException {
    assertEquals(List.of("a", "b"), lines("a\nb"));
    assertEquals(List.of(), lines(""));
    assertEquals(List.of(""), lines("\n"));
  }

  @Test
  void linesSpanningReadsAndLongerThanTheBuffer() throws IOException {
    String longLine = "x".repeat(300_000);
    String text = "first\n" + longLine + "\nlast\n";
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    // A stream that hands out at most 7 bytes a read.
    InputStream trickle = new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 7));
      }
    };
    assertEquals(List.of("first", longLine, "last"), lines(trickle));
    assertEquals(List.of("first", longLine, "last"), lines(new ByteArrayInputStream(bytes)));
  }
}
