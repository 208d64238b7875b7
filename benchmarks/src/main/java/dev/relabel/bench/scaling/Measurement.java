package dev.relabel.bench.scaling;

/**
 * What one child process cost: wall seconds (measured by the harness around the process), user
 * and system CPU seconds and peak resident set size of the child (from its rusage), and, for
 * relabel, the walk's own seconds as its {@code --json} report gives them ({@code walkSeconds}:
 * without the JVM's start and the policy's load); a figure the machine or the tool could not give
 * is NaN (seconds) or -1 (RSS).
 */
public record Measurement(double wallSeconds, double userSeconds, double sysSeconds, long peakRssKb,
    double walkSeconds) {
  /** Without a walk time (a tool that does not report one). */
  public Measurement(double wallSeconds, double userSeconds, double sysSeconds, long peakRssKb) {
    this(wallSeconds, userSeconds, sysSeconds, peakRssKb, Double.NaN);
  }

  /** This measurement with the walk's own seconds. */
  public Measurement withWalk(double seconds) {
    return new Measurement(wallSeconds, userSeconds, sysSeconds, peakRssKb, seconds);
  }
}
