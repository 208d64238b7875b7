package dev.relabel.cli.lookup;

import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines at {@code '\n'} only, handing each line out as a range of a
 * shared buffer: no decoding, no copy, no allocation per line. The last line need not end with
 * {@code '\n'}; a final {@code '\n'} does not start an empty line.
 *
 * <p>Before a read that may block (the stream reports nothing {@link InputStream#available()
 * available}), the given output is flushed, so that a caller feeding requests one at a time sees
 * each answer without the batch case paying a flush per line.
 */
public final class LineReader {
  private final InputStream in;
  private final Flushable beforeBlocking;
  private byte[] buffer = new byte[1 << 16];
  private int start;
  private int end;
  private boolean eof;
  private int lineStart;
  private int lineEnd;

  LineReader(InputStream in, Flushable beforeBlocking) {
    this.in = in;
    this.beforeBlocking = beforeBlocking;
  }

  /** Moves to the next line; false at the end of the stream. */
  boolean next() throws IOException {
    int scan = start;
    while (true) {
      byte[] b = buffer;
      for (int i = scan; i < end; i++) {
        if (b[i] == '\n') {
          lineStart = start;
          lineEnd = i;
          start = i + 1;
          return true;
        }
      }
      if (eof) {
        if (start < end) {
          lineStart = start;
          lineEnd = end;
          start = end;
          return true;
        }
        return false;
      }
      if (start > 0) {
        System.arraycopy(buffer, start, buffer, 0, end - start);
        end -= start;
        start = 0;
      }
      scan = end;
      if (end == buffer.length) {
        buffer = Arrays.copyOf(buffer, buffer.length * 2);
      }
      if (available() == 0) {
        beforeBlocking.flush();
      }
      int n = in.read(buffer, end, buffer.length - end);
      if (n < 0) {
        eof = true;
      } else {
        end += n;
      }
    }
  }

  private int available() {
    try {
      return in.available();
    } catch (IOException e) {
      return 0;
    }
  }

  /** The buffer holding the current line; valid until the next call to {@link #next()}. */
  byte[] buffer() {
    return buffer;
  }

  /** Where the current line starts in {@link #buffer()}. */
  int start() {
    return lineStart;
  }

  /** Where the current line ends in {@link #buffer()}, exclusive, without its {@code '\n'}. */
  int end() {
    return lineEnd;
  }
}
