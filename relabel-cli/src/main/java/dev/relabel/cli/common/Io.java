package dev.relabel.cli.common;

import static java.util.Objects.requireNonNull;

import dev.relabel.policy.PathBytes;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;

/**
 * The byte streams a command reads and writes, and the charset the JVM decoded its command-line
 * arguments with. Paths are bytes: commands that echo paths write them to {@link #out()} as bytes,
 * never through a {@code Writer}. Tests hand in memory streams; {@link #system()} is the process's.
 *
 * @param in standard input, raw
 * @param out standard output, raw (callers buffer it themselves and flush when done)
 * @param err standard error, raw
 * @param charset the charset of the locale, that the JVM decoded the command line with
 *     ({@code sun.jnu.encoding}): it turns an argument back into the bytes the process received,
 *     and messages into bytes
 */
public record Io(InputStream in, OutputStream out, OutputStream err, Charset charset) {
  public Io {
    requireNonNull(in, "in");
    requireNonNull(out, "out");
    requireNonNull(err, "err");
    requireNonNull(charset, "charset");
  }

  /** The process's own file descriptors 0, 1 and 2, unbuffered. */
  public static Io system() {
    return new Io(
        new FileInputStream(FileDescriptor.in),
        new FileOutputStream(FileDescriptor.out),
        new FileOutputStream(FileDescriptor.err),
        PathBytes.charset());
  }
}
