package dev.relabel.cli.common;

import static java.util.Objects.requireNonNull;

import dev.relabel.policy.PathBytes;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Map;

/**
 * The byte streams a command reads and writes, the charset the JVM decoded its command-line
 * arguments with, and the environment variables that set defaults ({@code RELABEL_THREADS}). Paths
 * are bytes: commands that echo paths write them to {@link #out()} as bytes, never through a
 * {@code Writer}. Tests hand in memory streams and an environment of their own (none unless they
 * give one, so that the caller's variables do not change a test); {@link #system()} is the
 * process's.
 *
 * @param in standard input, raw
 * @param out standard output, raw (callers buffer it themselves and flush when done)
 * @param err standard error, raw
 * @param charset the charset of the locale, that the JVM decoded the command line with
 *     ({@code sun.jnu.encoding}): it turns an argument back into the bytes the process received,
 *     and messages into bytes
 * @param environment the environment variables the command reads (a copy)
 */
public record Io(InputStream in, OutputStream out, OutputStream err, Charset charset, Map<String, String> environment) {
  public Io {
    requireNonNull(in, "in");
    requireNonNull(out, "out");
    requireNonNull(err, "err");
    requireNonNull(charset, "charset");
    environment = Map.copyOf(environment);
  }

  /** Streams with an empty environment. */
  public Io(InputStream in, OutputStream out, OutputStream err, Charset charset) {
    this(in, out, err, charset, Map.of());
  }

  /** These streams but for {@code out} and {@code err}; the same input, charset and environment. */
  public Io withOutput(OutputStream out, OutputStream err) {
    return new Io(in, out, err, charset, environment);
  }

  /** Text to {@link #out()} in {@link #charset()}, flushed at each line: picocli's standard output. */
  public PrintWriter outWriter() {
    return new PrintWriter(new OutputStreamWriter(out, charset), true);
  }

  /** Text to {@link #err()} in {@link #charset()}, flushed at each line: where messages go. */
  public PrintWriter errWriter() {
    return new PrintWriter(new OutputStreamWriter(err, charset), true);
  }

  /** The process's own file descriptors 0, 1 and 2, unbuffered, and its environment. */
  public static Io system() {
    return new Io(
        new FileInputStream(FileDescriptor.in),
        new FileOutputStream(FileDescriptor.out),
        new FileOutputStream(FileDescriptor.err),
        PathBytes.charset(),
        System.getenv());
  }
}
