package dev.relabel.cli.output;

import dev.relabel.cli.common.Io;
import dev.relabel.report.FilesystemProgress;
import picocli.CommandLine.Option;

/**
 * {@code -p} and {@code --[no-]progress}, for any verb that walks trees:
 * {@code @Mixin ProgressOptions progress;} then {@link Reporting#start} (or
 * {@code progress.open(io, "VERB", json)}) gives the {@link ProgressReporter} to add to the
 * engine's listeners. Flags only, no {@code --progress=WHEN}: setfiles' options take their
 * values after a space, so an optional value could not be told from a PATH.
 */
public final class ProgressOptions {
  @Option(names = "-p",
      description = "Show progress, as setfiles -p: a live bar on a terminal; when standard output is"
          + " not a terminal, setfiles' own progress text on it ('\\rNk' every 1024 entries, or"
          + " '\\rP%%' when / itself is relabelled), for scripts that read it. Not with -v.")
  private boolean setfilesProgress;

  @Option(names = "--progress", negatable = true,
      description = "Draw a live bar on standard error (entries done, rate, and a percentage and ETA"
          + " when the total can be estimated) even when it is not a terminal; --no-progress: no"
          + " bar and no -p text. Default: a bar when standard error is a terminal.")
  private Boolean forced;

  /** A fixfiles verb's ({@link #forFixfiles}). */
  private boolean fixfiles;
  private boolean setfilesTextByDefault;
  /** Whether the mount table may be read for the percentages of a relabel of / (not with -m). */
  private boolean readsMounts = true;

  /**
   * These options for a fixfiles verb, whose setfiles text is that of the restorecon and setfiles
   * runs fixfiles makes ({@link ProgressReporter#endSetfilesRun} ends each), printed off a terminal
   * with {@code textByDefault} even without -p (not with --no-progress): fixfiles passes -p to its
   * tools unless it is given -v. The bar is drawn where these options would draw it.
   */
  public ProgressOptions forFixfiles(boolean textByDefault) {
    ProgressOptions options = copy();
    options.fixfiles = true;
    options.setfilesTextByDefault = textByDefault;
    return options;
  }

  /**
   * These options for setfiles' or restorecon's -m: libselinux then does not read the mount
   * table, so it has no estimate and prints the count of a relabel of / in thousands, not percent.
   */
  public ProgressOptions withoutMountTable() {
    ProgressOptions options = copy();
    options.readsMounts = false;
    return options;
  }

  private ProgressOptions copy() {
    ProgressOptions options = new ProgressOptions();
    options.setfilesProgress = setfilesProgress;
    options.forced = forced;
    options.fixfiles = fixfiles;
    options.setfilesTextByDefault = setfilesTextByDefault;
    options.readsMounts = readsMounts;
    return options;
  }

  /** Whether {@code -p} was given (setfiles and restorecon refuse it with {@code -v}). */
  public boolean setfilesFlag() {
    return setfilesProgress;
  }

  /**
   * The reporter these options ask for on {@code io}; {@link ProgressReporter#NONE} when silent.
   * With {@code json} (standard output holds a JSON report), setfiles' -p text goes to standard
   * error instead.
   */
  public ProgressReporter open(Io io, String task, boolean json) {
    if (Boolean.FALSE.equals(forced)) {
      return ProgressReporter.NONE;
    }
    boolean stdoutTerminal = StatusLine.isTerminal(io.out(), 1);
    boolean stderrTerminal = StatusLine.isTerminal(io.err(), 2);
    boolean bar = Boolean.TRUE.equals(forced) || stderrTerminal || (setfilesProgress && stdoutTerminal);
    boolean text = (setfilesProgress || setfilesTextByDefault) && !stdoutTerminal;
    if (!bar && !text) {
      return ProgressReporter.NONE;
    }
    return new ProgressReporter(io, task, bar, text ? (json ? io.err() : io.out()) : null, stdoutTerminal, fixfiles,
        readsMounts ? FilesystemProgress::massRelabelEstimate : () -> 0);
  }
}
