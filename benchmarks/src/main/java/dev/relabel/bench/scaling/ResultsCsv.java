package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * results.csv: every run, one row each, in the order they ran. {@code walk_s} (relabel's walk
 * alone, from its --json report; empty for the other tools) is the last column; a results.csv
 * recorded before it existed (11 columns, {@link #HEADER_BEFORE_WALK}) is still read.
 */
public final class ResultsCsv {
  public static final String HEADER_BEFORE_WALK =
      "tool,version,scope,threads,mode,repeat,entries,wall_s,user_s,sys_s,peak_rss_kb";
  public static final String HEADER = HEADER_BEFORE_WALK + ",walk_s";

  private ResultsCsv() {}

  public static void write(Path file, List<Sample> samples) throws IOException {
    StringBuilder csv = new StringBuilder(HEADER).append('\n');
    for (Sample s : samples) {
      Trial t = s.trial();
      Measurement m = s.cost();
      csv.append(String.join(",", t.tool(), field(s.version()), t.scope().text(), Integer.toString(t.threads()),
          t.mode().text(), Integer.toString(t.repeat()), Long.toString(s.entries()), seconds(m.wallSeconds()),
          seconds(m.userSeconds()), seconds(m.sysSeconds()), m.peakRssKb() < 0 ? "" : Long.toString(m.peakRssKb()),
          seconds(m.walkSeconds())))
          .append('\n');
    }
    writeWhole(file, csv.toString());
  }

  /**
   * Writes a results file whole or not at all (a temporary file beside it, renamed over it): an
   * interrupted run never leaves half a table. Every bench command's outputs go through here.
   */
  static void writeWhole(Path target, String text) throws IOException {
    Path temp = Files.createTempFile(target.toAbsolutePath().getParent(), target.getFileName().toString(), ".tmp");
    try {
      Files.writeString(temp, text);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The samples of a results.csv this class wrote (for re-plotting a recorded run). */
  public static List<Sample> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER) && !lines.get(0).equals(HEADER_BEFORE_WALK)) {
      throw new IOException(file + " is not a relabel-bench results.csv (header: " + HEADER + ")");
    }
    int fields = lines.get(0).split(",").length;
    List<Sample> samples = new java.util.ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length != fields) {
        throw new IOException(file + ": not " + fields + " fields: " + line);
      }
      Trial trial = new Trial(Trial.Scope.parse(f[2]), Trial.Mode.parse(f[4]), Integer.parseInt(f[3]),
          Integer.parseInt(f[5]), f[0]);
      samples.add(new Sample(trial, f[1], Long.parseLong(f[6]), new Measurement(number(f[7]), number(f[8]),
          number(f[9]), f[10].isEmpty() ? -1 : Long.parseLong(f[10]), fields > 11 ? number(f[11]) : Double.NaN)));
    }
    return samples;
  }

  private static double number(String field) {
    return field.isEmpty() ? Double.NaN : Double.parseDouble(field);
  }

  /** Empty when unknown (NaN), otherwise milliseconds' precision. */
  static String seconds(double s) {
    return Double.isNaN(s) ? "" : String.format(Locale.ROOT, "%.3f", s);
  }

  /** A free-text field: CSV's separators out. */
  private static String field(String text) {
    return text.replace(',', ';').replace('\n', ' ');
  }
}
