package dev.relabel.bench.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** results.csv: every run, one row each, in the order they ran. */
public final class ResultsCsv {
  public static final String HEADER = "tool,version,scope,threads,mode,repeat,entries,wall_s,user_s,sys_s,peak_rss_kb";

  private ResultsCsv() {}

  public static void write(Path file, List<Sample> samples) throws IOException {
    StringBuilder csv = new StringBuilder(HEADER).append('\n');
    for (Sample s : samples) {
      Trial t = s.trial();
      Measurement m = s.cost();
      csv.append(String.join(",", t.tool(), field(s.version()), t.scope().text(), Integer.toString(t.threads()),
          t.mode().text(), Integer.toString(t.repeat()), Long.toString(s.entries()), seconds(m.wallSeconds()),
          seconds(m.userSeconds()), seconds(m.sysSeconds()), m.peakRssKb() < 0 ? "" : Long.toString(m.peakRssKb())))
          .append('\n');
    }
    Files.writeString(file, csv);
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
