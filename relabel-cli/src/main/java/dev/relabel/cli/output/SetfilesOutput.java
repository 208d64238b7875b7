package dev.relabel.cli.output;

import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.Io;
import dev.relabel.nativeio.Errno;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * What {@code relabel setfiles} prints, in setfiles' words, from any thread: the engine's changes,
 * failures and warnings as setfiles 3.4 (through libselinux's {@code selinux_restorecon}) prints
 * them, and the tally of errors that decides the exit status.
 *
 * <p>Informational lines go to a buffered standard output; each error line is one write to
 * standard error, after standard output has been flushed (as setfiles' log callback does), so
 * the two streams keep their order and no line is ever split. Paths are written as raw bytes.
 * Where setfiles prefixes a line with its {@code argv[0]}, this prints {@code relabel: }.
 */
public final class SetfilesOutput implements RelabelListener {
  public static final String PREFIX = "relabel: ";

  private static final byte[] RELABELED = ascii("Relabeled ");
  private static final byte[] WOULD_RELABEL = ascii("Would relabel ");
  private static final byte[] MATCHED_BY = ascii(" matched by ");
  private static final byte[] FROM = ascii(" from ");
  private static final byte[] TO = ascii(" to ");
  private static final byte[] NULL = ascii("(null)");

  private final OutputStream out;
  private final OutputStream err;
  private final Charset charset;
  private final boolean verbose;
  private boolean broken;
  /** The root being walked as the engine names it, and as setfiles would; see {@link #nameRoot}. */
  private volatile byte[] root;
  private volatile byte[] rootShown;
  /** Errors that fail the whole run (status 255 whatever -C says). */
  private long fatal;
  /** With {@link #limitListedChanges}: how many change lines at most, the changes seen, the aggregate. */
  private long listLimit = Long.MAX_VALUE;
  private final java.util.concurrent.atomic.AtomicLong listed = new java.util.concurrent.atomic.AtomicLong();
  private dev.relabel.report.ChangeSummary summary;
  /** Errors on single entries (status 255, or 1 with -C). */
  private long entryErrors;

  /**
   * @param charset the charset of messages and of paths held as strings
   * @param verbose {@code -v}: print each change and each customized label kept
   */
  public SetfilesOutput(Io io, Charset charset, boolean verbose) {
    this.out = new BufferedOutputStream(io.out(), 1 << 16);
    this.err = io.err();
    this.charset = charset;
    this.verbose = verbose;
  }

  /** {@code Relabeled PATH from OLD to NEW}, or {@code Would relabel ...} in a dry run; OLD {@code (null)} for no label. */
  @Override
  public void changed(RelabelReport.Change change) {
    if (!verbose) {
      return;
    }
    if (summary != null) {
      summary.changed(change);
      if (listed.incrementAndGet() > listLimit) {
        return;
      }
    }
    ByteArrayOutputStream line = new ByteArrayOutputStream(change.path().length + 128);
    line.writeBytes(change.applied() ? RELABELED : WOULD_RELABEL);
    line.writeBytes(shown(change.path()));
    line.writeBytes(FROM);
    line.writeBytes(change.from() == null ? NULL : change.from().getBytes(StandardCharsets.ISO_8859_1));
    line.writeBytes(TO);
    line.writeBytes(change.to().getBytes(StandardCharsets.ISO_8859_1));
    line.write('\n');
    info(line.toByteArray());
  }

  /**
   * Lists at most {@code limit} changes; past that, they are only counted, by directory and by
   * type transition, for {@link #summarizeUnlisted} (a summary instead of a flood).
   */
  public void limitListedChanges(long limit) {
    this.listLimit = limit;
    this.summary = new dev.relabel.report.ChangeSummary();
  }

  /**
   * After a run with {@link #limitListedChanges}: when changes went unlisted, how many, and every
   * change aggregated by directory and by type transition ({@code top} lines of each).
   */
  public void summarizeUnlisted(int top) {
    if (summary == null || summary.changes() <= listLimit) {
      return;
    }
    StringBuilder text = new StringBuilder();
    text.append(String.format(java.util.Locale.ROOT, "... %,d more changes not listed (of %,d; -vv lists them all)%n",
        summary.changes() - listLimit, summary.changes()));
    text.append(dev.relabel.report.ChangeSummary.table("Changes by directory", summary.byDirectory(), top));
    text.append(dev.relabel.report.ChangeSummary.table("Changes by type (old -> new)", summary.byTransition(), top));
    info(text.toString().getBytes(charset));
  }

  /** setfiles -d: {@code PATH matched by CONTEXT}, for every entry a spec gives a context. */
  @Override
  public void matched(byte[] path, String context) {
    ByteArrayOutputStream line = new ByteArrayOutputStream(path.length + 64);
    line.writeBytes(shown(path));
    line.writeBytes(MATCHED_BY);
    line.writeBytes(context.getBytes(StandardCharsets.ISO_8859_1));
    line.write('\n');
    info(line.toByteArray());
  }

  /**
   * An entry the engine could not handle, said as setfiles says it. Labels that cannot be read,
   * compared or written are entry errors ({@code Could not set context for PATH:  REASON}); a
   * directory that cannot be read or an entry that cannot be stat'ed is only reported, as fts
   * reports it to setfiles, and does not change the exit status.
   */
  @Override
  public void failed(RelabelReport.Failure failure) {
    String message = failure.message();
    String operation = message.indexOf(':') > 0 ? message.substring(0, message.indexOf(':')) : "";
    byte[] path = shown(failure.path());
    if (message.startsWith("current label '")) {
      // libselinux cannot parse the current context to compare types: EINVAL.
      entryError(concat(PREFIX + "Could not set context for ", path, ":  " + strerror(Errno.EINVAL) + "\n"));
    } else if (message.equals(RelabelReport.DIRECTORY_CYCLE)) {
      // libselinux's words, and an error of the run, as for setfiles (which stops its walk there).
      entryError(concat(PREFIX + "Directory cycle on ", path, ".\n"));
    } else if (message.startsWith("internal error")) {
      fatal(concat(PREFIX, path, ": " + message + "\n"));
    } else if (failure.errno() != 0 && (operation.equals("openat") || operation.equals("getdents64"))) {
      error(concat(PREFIX + "Could not read ", path, ": " + strerror(failure.errno()) + ".\n"));
    } else if (failure.errno() != 0 && operation.equals("statx")) {
      error(concat(PREFIX + "Could not stat ", path, ": " + strerror(failure.errno()) + ".\n"));
    } else if (failure.errno() != 0) {
      entryError(concat(PREFIX + "Could not set context for ", path, ":  " + strerror(failure.errno()) + "\n"));
    } else {
      entryError(concat(PREFIX, path, ": " + message + "\n"));
    }
  }

  /** setfiles -D: a directory whose digest is unchanged, on standard output as libselinux logs it. */
  @Override
  public void skippedUnchanged(byte[] path) {
    info(concat("Skipping restorecon on directory(", shown(path), ")\n"));
  }

  /** restorecon's, for a path it is given that no spec labels: always, on standard output. */
  @Override
  public void noDefaultLabel(byte[] key) {
    info(concat("Warning no default label for ", key, "\n"));
  }

  /** With -v, on standard output, the path's own bytes. */
  @Override
  public void keptCustomized(byte[] path, String context) {
    if (verbose) {
      info(concat("", shown(path), " not reset as customized by admin to " + context + "\n"));
    }
  }

  /** Always, on standard error, the paths' own bytes. */
  @Override
  public void conflicted(byte[] other, byte[] previous, String context) {
    ByteArrayOutputStream line = new ByteArrayOutputStream(other.length + previous.length + 128);
    line.writeBytes(concat(PREFIX + "conflicting specifications for ", shown(other), " and "));
    line.writeBytes(concat("", shown(previous), ", using " + context + ".\n"));
    error(line.toByteArray());
  }

  /**
   * A notice: a digest that could not be stored ({@code setxattr failed: ...}) always, on standard
   * error, as libselinux logs it; any other only with -v, on standard output.
   */
  @Override
  public void warned(String message) {
    if (message.startsWith("setxattr failed: ")) {
      error((PREFIX + message + "\n").getBytes(charset));
    } else if (verbose) {
      info((message + "\n").getBytes(charset));
    }
  }

  /**
   * Before each walk: the engine names the root {@code root} (absolute, normalized), setfiles
   * would name it {@code shown} (as given, a trailing slash kept).
   */
  public void nameRoot(byte[] root, byte[] shown) {
    this.rootShown = shown;
    this.root = root;
  }

  private byte[] shown(byte[] path) {
    byte[] r = root;
    return r != null && java.util.Arrays.equals(r, path) ? rootShown : path;
  }

  /** A line on standard output. */
  public synchronized void info(byte[] line) {
    if (broken) {
      return;
    }
    try {
      out.write(line);
    } catch (IOException e) {
      broken = true; // setfiles does not stop for a closed standard output either
    }
  }

  /** A message on standard error that does not change the exit status. */
  public synchronized void error(byte[] line) {
    try {
      if (!broken) {
        out.flush();
      }
    } catch (IOException e) {
      broken = true;
    }
    try {
      err.write(line);
      err.flush();
    } catch (IOException e) {
      // nowhere left to say it
    }
  }

  public void error(String line) {
    error(line.getBytes(charset));
  }

  /** An error on one entry: exit status 255, or 1 with -C when there is no other error. */
  public synchronized void entryError(byte[] line) {
    entryErrors++;
    error(line);
  }

  /** An error that fails the run: exit status 255. */
  public synchronized void fatal(byte[] line) {
    fatal++;
    error(line);
  }

  public void fatal(String line) {
    fatal(line.getBytes(charset));
  }

  public synchronized void entryError(String line) {
    entryError(line.getBytes(charset));
  }

  public synchronized boolean hasFatal() {
    return fatal > 0;
  }

  public synchronized boolean hasEntryErrors() {
    return entryErrors > 0;
  }

  public synchronized void flush() {
    if (broken) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      broken = true;
    }
  }

  /** {@code head + path + tail}, the path as raw bytes. */
  public byte[] concat(String head, byte[] path, String tail) {
    ByteArrayOutputStream line = new ByteArrayOutputStream(path.length + 96);
    line.writeBytes(head.getBytes(charset));
    line.writeBytes(path);
    line.writeBytes(tail.getBytes(charset));
    return line.toByteArray();
  }

  /** The C library's text for an errno, as {@code %m} prints it. */
  public static String strerror(int errno) {
    return Errno.strerror(errno);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
