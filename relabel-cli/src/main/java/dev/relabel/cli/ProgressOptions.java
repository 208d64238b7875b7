package dev.relabel.cli;

import picocli.CommandLine.Option;

/**
 * {@code -p} and {@code --progress[=WHEN]}, for any verb that walks trees:
 * {@code @Mixin ProgressOptions progress;} then {@code progress.open(io, "VERB")} gives the
 * {@link ProgressReporter} to add to the engine's listeners.
 */
public final class ProgressOptions {
  /** When to draw the live bar. */
  public enum When { AUTO, ALWAYS, NEVER }

  @Option(names = "-p",
      description = "Show progress, as setfiles -p: a live bar on a terminal; when standard output is"
          + " not a terminal, setfiles' own progress text on it ('\\rNk' every 1024 entries, or"
          + " '\\rP%%' when / itself is relabelled), for scripts that read it. Not with -v.")
  private boolean setfilesProgress;

  @Option(names = "--progress", paramLabel = "WHEN", arity = "0..1", fallbackValue = "always",
      converter = WhenConverter.class, completionCandidates = WhenCandidates.class,
      description = "Draw a live bar on standard error (entries done, rate, and a percentage and ETA"
          + " when the total can be estimated): auto (the default) when standard error is a"
          + " terminal, always (also --progress alone), or never.")
  private When when = When.AUTO;

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
    if (when == When.NEVER) {
      return ProgressReporter.NONE;
    }
    boolean stdoutTerminal = StatusLine.isTerminal(io.out(), 1);
    boolean stderrTerminal = StatusLine.isTerminal(io.err(), 2);
    boolean bar = when == When.ALWAYS || stderrTerminal || (setfilesProgress && stdoutTerminal);
    boolean text = setfilesProgress && !stdoutTerminal;
    if (!bar && !text) {
      return ProgressReporter.NONE;
    }
    return new ProgressReporter(io, task, bar, text ? (json ? io.err() : io.out()) : null, stdoutTerminal);
  }

  /** What bash completion offers for WHEN. */
  static final class WhenCandidates extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    WhenCandidates() {
      super(java.util.List.of("auto", "always", "never"));
    }
  }

  /** auto, always or never, in any case. */
  static final class WhenConverter implements picocli.CommandLine.ITypeConverter<When> {
    @Override
    public When convert(String value) {
      for (When when : When.values()) {
        if (when.name().equalsIgnoreCase(value)) {
          return when;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "'" + value + "' is not auto, always or never");
    }
  }
}
