package dev.relabel.cli.common;

import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into records at one delimiter byte ({@code '\n'}, or NUL for setfiles'
 * {@code -0}), as getdelim(3) does, handing each record out as a range of a shared buffer: no
 * decoding, no copy, no allocation per record. The last record need not end with the delimiter;
 * a final delimiter does not start an empty record.
 *
 * <p>Records are handed out as they arrive, so a list fed by a program that never closes its end
 * ({@code inotifywait -m ... | relabel restorecon -f -}) is labelled as it comes, as setfiles does.
 * Before a read that may block (the stream reports nothing {@link InputStream#available()
 * available}), the given output is flushed, so that a caller feeding requests one at a time sees
 * each answer without the batch case paying a flush per record.
 *
 * <p>A record longer than {@link #longest} bytes is not held: its bytes are passed over up to its
 * delimiter and it is handed out {@linkplain #overlong() overlong} and empty, so that one huge
 * record (a binary file fed by mistake) costs a bounded buffer, not the heap, and the records
 * after it are still read.
 */
public final class RecordReader {
  /** The longest record kept by default: 256 times PATH_MAX, more than any path or glob names. */
  public static final int LONGEST_RECORD = 1 << 20;

  private final InputStream in;
  private final byte delimiter;
  private final int longest;
  private final Flushable beforeBlocking;
  private byte[] buffer = new byte[1 << 13];
  private int start;
  private int end;
  private boolean eof;
  private int recordStart;
  private int recordEnd;
  private boolean overlong;

  public RecordReader(InputStream in, byte delimiter, Flushable beforeBlocking) {
    this(in, delimiter, LONGEST_RECORD, beforeBlocking);
  }

  RecordReader(InputStream in, byte delimiter, int longest, Flushable beforeBlocking) {
    this.in = in;
    this.delimiter = delimiter;
    this.longest = longest;
    this.beforeBlocking = beforeBlocking;
  }

  /** Moves to the next record; false at the end of the stream. */
  public boolean next() throws IOException {
    overlong = false;
    int scan = start;
    while (true) {
      byte[] b = buffer;
      for (int i = scan; i < end; i++) {
        if (b[i] == delimiter) {
          return handOut(i, i + 1);
        }
      }
      if (end - start > longest) {
        // Too long to keep: drop what is held of it and read on to its delimiter.
        overlong = true;
        start = 0;
        end = 0;
      }
      if (eof) {
        return start < end || overlong ? handOut(end, end) : false;
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

  private boolean handOut(int recordEnd, int next) {
    overlong |= recordEnd - start > longest;
    this.recordStart = overlong ? recordEnd : start;
    this.recordEnd = recordEnd;
    start = next;
    return true;
  }

  private int available() {
    try {
      return in.available();
    } catch (IOException e) {
      return 0;
    }
  }

  /** The buffer holding the current record; valid until the next call to {@link #next()}. */
  public byte[] buffer() {
    return buffer;
  }

  /** Where the current record starts in {@link #buffer()}. */
  public int start() {
    return recordStart;
  }

  /** Where the current record ends in {@link #buffer()}, exclusive, without its delimiter. */
  public int end() {
    return recordEnd;
  }

  /** Whether the current record was longer than the longest kept; it is then handed out empty. */
  public boolean overlong() {
    return overlong;
  }

  /** The longest record kept, in bytes. */
  public int longest() {
    return longest;
  }
}
