package dev.relabel.cli.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordReaderTest {
  /** Each record as text, an overlong one as "<overlong>". */
  private static List<String> records(RecordReader reader) throws IOException {
    List<String> records = new ArrayList<>();
    while (reader.next()) {
      String record = new String(reader.buffer(), reader.start(), reader.end() - reader.start(),
          StandardCharsets.ISO_8859_1);
      if (reader.overlong()) {
        assertEquals("", record, "an overlong record is handed out empty");
        record = "<overlong>";
      }
      records.add(record);
    }
    return records;
  }

  private static List<String> lines(InputStream in) throws IOException {
    return records(new RecordReader(in, (byte) '\n', () -> {}));
  }

  private static List<String> lines(String text) throws IOException {
    return lines(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)));
  }

  /** A stream that hands out at most 7 bytes a read. */
  private static InputStream trickle(byte[] bytes) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 7));
      }
    };
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
  void splitsAtNulForSetfilesDashZero() throws IOException {
    byte[] bytes = "a\nb\0c\0\0d".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("a\nb", "c", "", "d"),
        records(new RecordReader(new ByteArrayInputStream(bytes), (byte) 0, () -> {})));
  }

  @Test
  void linesSpanningReadsAndLongerThanTheBuffer() throws IOException {
    String longLine = "x".repeat(300_000);
    String text = "first\n" + longLine + "\nlast\n";
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("first", longLine, "last"), lines(trickle(bytes)));
    assertEquals(List.of("first", longLine, "last"), lines(new ByteArrayInputStream(bytes)));
  }

  @Test
  void aRecordLongerThanTheLongestIsPassedOverAndTheRestRead() throws IOException {
    String atTheLimit = "y".repeat(100);
    String text = "first\n" + "x".repeat(10_000) + "\n" + atTheLimit + "\n" + "z".repeat(101) + "\nlast\n"
        + "w".repeat(5_000);
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    List<String> expected = List.of("first", "<overlong>", atTheLimit, "<overlong>", "last", "<overlong>");
    assertEquals(expected, records(new RecordReader(trickle(bytes), (byte) '\n', 100, () -> {})));
    assertEquals(expected,
        records(new RecordReader(new ByteArrayInputStream(bytes), (byte) '\n', 100, () -> {})));
  }

  @Test
  void anEndlessRecordIsHeldInABoundedBuffer() throws IOException {
    long[] handedOut = {0};
    long total = 64L << 20;
    // 64 MiB of one record, then a short one: the reader keeps no more than about twice the longest.
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        throw new AssertionError("read in blocks");
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (handedOut[0] >= total + 4) {
          return -1;
        }
        int n = (int) Math.min(len, total + 4 - handedOut[0]);
        for (int i = 0; i < n; i++) {
          long at = handedOut[0] + i;
          b[off + i] = at < total ? (byte) 'x' : (byte) "\nok\n".charAt((int) (at - total));
        }
        handedOut[0] += n;
        return n;
      }
    };
    RecordReader reader = new RecordReader(endless, (byte) '\n', 1 << 16, () -> {});
    assertEquals(List.of("<overlong>", "ok"), records(reader));
    assertTrue(reader.buffer().length <= 2 << 16, "buffer grew to " + reader.buffer().length);
  }

  @Test
  void flushesOnlyBeforeAReadThatMayBlock() throws IOException {
    int[] flushes = {0};
    byte[] bytes = "a\nb\nc\n".getBytes(StandardCharsets.ISO_8859_1);
    RecordReader reader = new RecordReader(new ByteArrayInputStream(bytes), (byte) '\n', () -> flushes[0]++);
    assertTrue(reader.next());
    assertTrue(reader.next());
    assertTrue(reader.next());
    assertEquals(0, flushes[0], "everything was available: no flush");
    assertEquals(false, reader.next());
    assertEquals(1, flushes[0], "the read that finds the end may block: one flush");
  }
}
