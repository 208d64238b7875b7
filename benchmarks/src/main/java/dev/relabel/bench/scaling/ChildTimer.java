package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a command as a child process and measures it: wall time here, around the process; user,
 * system and peak RSS from the child's rusage, which GNU time(1) reports ({@code /usr/bin/time
 * -f}). Where time(1) is not installed, a shell wraps the command and reads its own
 * {@code /proc/PID/stat} after waiting for it: {@code cutime}/{@code cstime} are the waited
 * children's CPU times (peak RSS is then unknown). The wrapper's own start (about a millisecond)
 * is inside the wall time either way.
 */
public final class ChildTimer {
  static final Path GNU_TIME = Path.of("/usr/bin/time");
  private final Path scratch;
  private final boolean gnuTime;

  public ChildTimer(Path scratch) {
    this(scratch, Files.isExecutable(GNU_TIME));
  }

  /** With {@code gnuTime} false, the /proc fallback even where time(1) is installed (for its test). */
  ChildTimer(Path scratch, boolean gnuTime) {
    this.scratch = scratch;
    this.gnuTime = gnuTime;
  }

  /** How CPU and memory are measured, for the results' notes. */
  public String method() {
    return gnuTime ? "GNU time(1) (/usr/bin/time -f '%U %S %M': the child's rusage)"
        : "/proc/PID/stat cutime/cstime of a shell that waited for the child (time(1) is not installed; no peak RSS)";
  }

  /** Runs {@code command} (stdout discarded, stderr kept for the error message); fails unless it exits 0. */
  public Measurement run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
    return run(command, environment, null);
  }

  /**
   * As {@link #run(List, Map)}, with the child's standard output written to {@code stdout} (a file;
   * null discards it). Either way the output goes to a file the child writes directly, so keeping
   * it adds no reading by the harness to the wall time.
   */
  public Measurement run(List<String> command, Map<String, String> environment, Path stdout)
      throws IOException, InterruptedException {
    Path report = Files.createTempFile(scratch, "rusage", ".txt");
    Path errors = Files.createTempFile(scratch, "stderr", ".txt");
    try {
      List<String> wrapped = new ArrayList<>();
      if (gnuTime) {
        wrapped.addAll(List.of(GNU_TIME.toString(), "-f", "%U %S %M", "-o", report.toString()));
        wrapped.addAll(command);
      } else {
        // $$ is the shell itself: after `wait`, its cutime/cstime (fields 16 and 17) are the child's.
        wrapped.addAll(List.of("sh", "-c", "\"$@\" & wait $!; s=$?; cat /proc/$$/stat > \"$R\"; exit $s", "sh"));
        wrapped.addAll(command);
      }
      ProcessBuilder builder = new ProcessBuilder(wrapped)
          .redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()))
          .redirectError(errors.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().putAll(environment);
      builder.environment().put("R", report.toString());
      long start = System.nanoTime();
      Process process = builder.start();
      int status = process.waitFor();
      double wall = (System.nanoTime() - start) / 1e9;
      if (status != 0) {
        String err = Files.readString(errors, StandardCharsets.ISO_8859_1);
        throw new IOException(String.join(" ", command) + " exited " + status + ": "
            + err.substring(Math.max(0, err.length() - 2000)));
      }
      String text = Files.readString(report, StandardCharsets.ISO_8859_1).trim();
      return gnuTime ? fromTime(wall, text) : fromStat(wall, text);
    } finally {
      Files.deleteIfExists(report);
      Files.deleteIfExists(errors);
    }
  }

  /** The last line of time(1)'s report: "USER SYS MAXRSS_KB". */
  static Measurement fromTime(double wall, String text) {
    String[] lines = text.split("\n");
    String[] f = lines[lines.length - 1].trim().split("\\s+");
    return new Measurement(wall, Double.parseDouble(f[0]), Double.parseDouble(f[1]), Long.parseLong(f[2]));
  }

  /** /proc/PID/stat: fields after the ")" that ends the command name; cutime is field 16, cstime 17. */
  static Measurement fromStat(double wall, String text) {
    String[] f = text.substring(text.lastIndexOf(')') + 2).trim().split("\\s+");
    // f[0] is field 3 (state), so field N is f[N - 3]. USER_HZ is 100 on every Linux ABI in use.
    double ticks = 100.0;
    return new Measurement(wall, Long.parseLong(f[13]) / ticks, Long.parseLong(f[14]) / ticks, -1);
  }
}
