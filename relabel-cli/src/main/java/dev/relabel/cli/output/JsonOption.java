package dev.relabel.cli.output;

import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.IoHost;
import java.io.IOException;
import java.io.OutputStream;
import picocli.CommandLine.Option;

/**
 * {@code --json}, for any verb: {@code @Mixin JsonOption json;}. Relabelling verbs use it
 * through {@link Reporting}; others call {@link #open} (null without {@code --json}) and
 * {@link #textStreams}. With it, standard output carries the report alone: the verb's own text
 * for standard output goes to standard error, and each line on standard error is also kept in the
 * report's {@code messages}.
 */
public final class JsonOption {
  @Option(names = "--json",
      description = "Write a JSON report on standard output (its schema: report.schema.json, see"
          + " 'relabel --help'): counts, duration, exit status, every error with its path, and each"
          + " change with -v. Text that would go to standard output goes to standard error.")
  private boolean enabled;

  /** The report {@link #open} gave, for {@link #failed}. */
  private JsonReport report;

  /** The quick path's {@code --json} ({@code Getopt}): once, as picocli takes a flag. */
  public boolean longOption(String name) {
    return name.equals("json") && !enabled && (enabled = true);
  }

  /** Whether {@code --json} was given. */
  public boolean enabled() {
    return enabled;
  }

  /** The report on {@code io}'s standard output, or null without {@code --json}. */
  public JsonReport open(Io io, JsonReport.Kind kind, String command, boolean withChanges, boolean dryRun) {
    if (enabled) {
      report = new JsonReport(io.out(), kind, command, withChanges, dryRun);
    }
    return report;
  }

  /**
   * A verb with {@code --json} failed by throwing (a usage error, an unusable policy, an I/O
   * error): ends its report, or writes one when it had none yet, with {@code messages} (the
   * lines said on standard error, without {@code relabel: }) as errors and {@code status}. Called
   * by RelabelCommand's exception handlers for any verb that has this mixin.
   */
  public static void failed(picocli.CommandLine commandLine, java.util.List<String> messages, int status) {
    for (picocli.CommandLine.Model.CommandSpec mixin : commandLine.getCommandSpec().mixins().values()) {
      if (mixin.userObject() instanceof JsonOption option) {
        JsonReport.Kind kind = commandLine.getCommand() instanceof JsonReport.Kind.Declared declared
            ? declared.reportKind() : JsonReport.Kind.RELABEL;
        option.failed(IoHost.of(commandLine.getCommandSpec()), kind, commandLine.getCommandName(), messages, status);
      }
    }
  }

  /**
   * As {@link #failed(picocli.CommandLine, java.util.List, int)}, for the verb {@code command}
   * that has this option, its report (when it had none yet) on {@code io}: the quick path's
   * failures come here too. Nothing without {@code --json}.
   */
  public void failed(Io io, JsonReport.Kind kind, String command, java.util.List<String> messages, int status) {
    if (!enabled) {
      return;
    }
    JsonReport failing = report != null ? report : new JsonReport(io.out(), kind, command, false, false);
    for (String message : messages) {
      failing.error(null, 0, message);
      failing.message(("relabel: " + message).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    failing.finish(status);
  }

  /**
   * The streams a verb writes its own text to: with {@code --json}, standard output's text goes
   * to standard error, and standard error's lines are also kept in the report.
   */
  public static Io textStreams(Io io, JsonReport report) {
    if (report == null) {
      return io;
    }
    return io.withOutput(io.err(), new LineCopy(io.err(), report));
  }

  /** Passes bytes through, and hands each complete line (without its newline) to the report. */
  private static final class LineCopy extends OutputStream {
    private final OutputStream target;
    private final JsonReport report;
    private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

    LineCopy(OutputStream target, JsonReport report) {
      this.target = target;
      this.report = report;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      int start = off;
      for (int i = off; i < off + len; i++) {
        if (b[i] == '\n') {
          line.write(b, start, i - start);
          report.message(line.toByteArray());
          line.reset();
          start = i + 1;
        }
      }
      line.write(b, start, off + len - start);
      target.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      target.flush();
    }
  }
}
