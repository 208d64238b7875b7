package dev.relabel.cli.output;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;

/**
 * The last line of a terminal, held by a live progress bar. Whatever else goes to the same
 * terminal (through {@link #guard}) first erases the bar, so a message is never glued to the
 * middle of it; the bar is drawn again at its next refresh. All writes hold this object's lock.
 */
public final class StatusLine {
  private static final byte[] ERASE = {'\r', 0x1b, '[', 'K'};

  private final OutputStream terminal;
  private final Charset charset;
  private boolean drawn;

  StatusLine(OutputStream terminal, Charset charset) {
    this.terminal = terminal;
    this.charset = charset;
  }

  /** Replaces the line with {@code text}. */
  synchronized void draw(String text) {
    try {
      terminal.write('\r');
      terminal.write(text.getBytes(charset));
      terminal.write(ERASE, 1, ERASE.length - 1);
      terminal.flush();
      drawn = true;
    } catch (IOException e) {
      drawn = false; // the terminal is gone; the run goes on
    }
  }

  /** Ends the line (the bar stays on screen) so that what follows starts on its own line. */
  synchronized void end() {
    if (drawn) {
      write(new byte[] {'\n'});
    }
    drawn = false;
  }

  private void erase() {
    if (drawn) {
      write(ERASE);
      drawn = false;
    }
  }

  private void write(byte[] bytes) {
    try {
      terminal.write(bytes);
      terminal.flush();
    } catch (IOException e) {
      // as in draw
    }
  }

  /** {@code stream}, erasing the bar before each write (for the streams that share its terminal). */
  OutputStream guard(OutputStream stream) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        synchronized (StatusLine.this) {
          erase();
          stream.write(b, off, len);
          stream.flush();
        }
      }

      @Override
      public void flush() throws IOException {
        stream.flush();
      }
    };
  }

  /**
   * Whether {@code stream} is the process's standard output ({@code fd} 1) or error (2) and that
   * is a terminal. Memory streams (tests) and files are not. The launcher says which are
   * ({@value #TERMINALS}: the numbers of those that are, as {@code test -t} found them); a JVM
   * started otherwise asks the kernel.
   */
  static boolean isTerminal(OutputStream stream, int fd) {
    FileDescriptor expected = fd == 1 ? FileDescriptor.out : FileDescriptor.err;
    try {
      if (!(stream instanceof FileOutputStream file && file.getFD() == expected)) {
        return false;
      }
      String told = System.getProperty(TERMINALS);
      return told != null ? told.indexOf('0' + fd) >= 0 : dev.relabel.nativeio.Kernel.linux().isTerminal(fd);
    } catch (IOException | LinkageError e) {
      return false;
    }
  }

  /** The system property by which {@code bin/relabel} tells which of 1 and 2 are terminals. */
  static final String TERMINALS = "relabel.terminals";
}
