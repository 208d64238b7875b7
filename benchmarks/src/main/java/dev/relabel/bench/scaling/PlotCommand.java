package dev.relabel.bench.scaling;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code relabel-bench plot}: draws scaling.png again from a recorded results.csv, without rerunning. */
@Command(name = "plot", mixinStandardHelpOptions = true,
    description = "Draw scaling.png again from a results.csv that relabel-bench scaling wrote.")
public final class PlotCommand implements Callable<Integer> {
  @Option(names = "--csv", required = true, paramLabel = "FILE", description = "results.csv")
  Path csv;

  @Option(names = "--out", required = true, paramLabel = "PNG", description = "the image to write")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<Sample> samples = ResultsCsv.read(csv);
    long entries = samples.isEmpty() ? 0 : samples.get(0).entries();
    ScalingPlot.write(out, String.format(Locale.ROOT, "Speed-up against threads, %,d entries", entries),
        Stats.medians(samples));
    return 0;
  }
}
