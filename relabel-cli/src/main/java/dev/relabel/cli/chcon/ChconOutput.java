package dev.relabel.cli.chcon;

import dev.relabel.cli.common.Io;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.walk.ChconListener;
import dev.relabel.walk.ChconProblem;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/** chcon's lines: -v on standard output, problems on standard error, each as chcon words it. */
final class ChconOutput {
  private static final String PREFIX = "relabel: ";
  private final Io io;
  private final ChconQuoting quoting;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  ChconOutput(Io io, ChconQuoting quoting) {
    this.io = io;
    this.quoting = quoting;
  }

  /** This output, passing everything on to {@code reporting} too (JSON, progress). */
  ChconListener listener(RelabelListener reporting) {
    return new ChconListener() {
      @Override
      public void announced(byte[] path) {
        line(out, join("changing security context of ", quoting.file(path), ""));
      }

      @Override
      public void failed(ChconProblem problem) {
        for (byte[] message : words(problem)) {
          error(message);
        }
        reporting.failed(problem.failure());
      }

      @Override
      public void changed(RelabelReport.Change change) {
        reporting.changed(change);
      }

      @Override
      public void progress(long entries) {
        reporting.progress(entries);
      }
    };
  }

  private List<byte[]> words(ChconProblem p) {
    String reason = p.errno() == 0 ? "" : ": " + SetfilesOutput.strerror(p.errno());
    byte[] name = quoting.file(p.accessName());
    return switch (p.kind()) {
      case CANNOT_ACCESS -> List.of(join("cannot access ", quoting.file(p.path()), reason));
      case CANNOT_READ_DIRECTORY -> List.of(join("cannot read directory ", quoting.file(p.path()), reason));
      case GET_FAILED -> List.of(join("failed to get security context of ", name, reason));
      case UNLABELED -> List.of(join("can't apply partial context to unlabeled file ", name, ""));
      case MALFORMED -> List.of(join("failed to create security context: ", quoting.value(p.value()), reason));
      case BAD_FIELD -> List.of(join("failed to set " + p.field() + " security context component to ",
          quoting.value(p.value()), reason));
      case SET_FAILED -> List.of(join(join("failed to change context of ", name, " to "), quoting.value(p.value()),
          reason));
      case DANGEROUS_ROOT -> List.of(isSlash(p.path())
          ? join("it is dangerous to operate recursively on ", quoting.file(p.path()), "")
          : join(join("it is dangerous to operate recursively on ", quoting.file(p.path()), " (same as "),
              quoting.file(new byte[] {'/'}), ")"),
          join("use --no-preserve-root to override this failsafe", new byte[0], ""));
      case ROOT_UNREADABLE -> List.of(join("failed to get attributes of ", quoting.file(p.path()), reason));
      case INTERNAL_ERROR -> List.of(join("", quoting.file(p.path()), ": internal error: " + p.value()));
      // One message of five lines and a blank one, as coreutils words fts's FTS_DC.
      case DIRECTORY_CYCLE -> List.of(join("WARNING: Circular directory structure.\n"
          + "This almost certainly means that you have a corrupted file system.\n"
          + "NOTIFY YOUR SYSTEM MANAGER.\n"
          + "The following directory is part of the cycle:\n  ", quoting.fileWhereNeeded(p.path()), "\n"));
    };
  }

  private static boolean isSlash(byte[] path) {
    return path.length == 1 && path[0] == '/';
  }

  byte[] join(String head, byte[] middle, String tail) {
    return join(head.getBytes(io.charset()), middle, tail);
  }

  private byte[] join(byte[] head, byte[] middle, String tail) {
    ByteArrayOutputStream line = new ByteArrayOutputStream(head.length + middle.length + tail.length() + 1);
    line.writeBytes(head);
    line.writeBytes(middle);
    line.writeBytes(tail.getBytes(io.charset()));
    return line.toByteArray();
  }

  /**
   * An error line, written at once after every -v line before it, as chcon's {@code error()}
   * flushes standard output first: on one terminal or in one log ({@code 2>&1}) each failure
   * follows its {@code changing security context of} line, not the end of the run.
   */
  synchronized void error(byte[] message) {
    err.writeBytes(PREFIX.getBytes(io.charset()));
    line(err, message);
    flush();
  }

  private synchronized void line(ByteArrayOutputStream stream, byte[] text) {
    stream.writeBytes(text);
    stream.write('\n');
    if (stream.size() > 1 << 16) {
      flush();
    }
  }

  /** {@code --summary}: one line on standard error, after the run's own lines. */
  synchronized void summary(RelabelReport report) {
    line(err, String.format(java.util.Locale.ROOT, "relabel chcon: %d entries, %d changed, %d failed, %.2f s",
        report.visited(), report.relabeled(), report.failures().size(), report.elapsed().toNanos() / 1e9)
        .getBytes(io.charset()));
  }

  synchronized void flush() {
    try {
      io.out().write(out.toByteArray());
      io.out().flush();
      out.reset();
      io.err().write(err.toByteArray());
      io.err().flush();
      err.reset();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
