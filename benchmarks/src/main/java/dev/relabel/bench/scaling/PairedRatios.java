package dev.relabel.bench.scaling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * results.md's ratios taken within each repetition, then their median: relabel over each
 * reference at one -T, and each tool's speed-up from the fewest threads. The runs of one
 * repetition follow each other within seconds, so a shared host's slow spell (these machines'
 * runs of one build swing by 40% from one minute to the next) weighs on both sides of a ratio;
 * a ratio of two medians can pair a fast spell's run with a slow one's.
 */
public final class PairedRatios {
  private PairedRatios() {}

  /** One ratio per repetition that has both runs: its median and range, or "-" when there is none. */
  static String summary(List<Double> ratios) {
    if (ratios.isEmpty()) {
      return "-";
    }
    double low = ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double high = ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    return String.format(Locale.ROOT, "%.2f (%.2f–%.2f, %d)", Stats.median(ratios), low, high, ratios.size());
  }

  /**
   * {@code figure(a) / figure(b)} for each repetition where both ran and both figures are known,
   * in repetition order.
   */
  static List<Double> ratios(Map<Trial, Sample> byTrial, Trial.Scope scope, Trial.Mode mode, String a, int threadsA,
      String b, int threadsB, ToDoubleFunction<Measurement> figure) {
    List<Double> ratios = new ArrayList<>();
    int repeats = byTrial.keySet().stream().mapToInt(Trial::repeat).max().orElse(0);
    for (int r = 1; r <= repeats; r++) {
      Sample x = byTrial.get(new Trial(scope, mode, threadsA, r, a));
      Sample y = byTrial.get(new Trial(scope, mode, threadsB, r, b));
      if (x != null && y != null) {
        double ratio = figure.applyAsDouble(x.cost()) / figure.applyAsDouble(y.cost());
        if (!Double.isNaN(ratio)) {
          ratios.add(ratio);
        }
      }
    }
    return ratios;
  }

  /** The markdown section; empty when no repetition pairs two runs. */
  public static String render(List<Sample> samples) {
    Map<Trial, Sample> byTrial = new LinkedHashMap<>();
    samples.forEach(s -> byTrial.put(s.trial(), s));
    StringBuilder md = new StringBuilder();
    Set<Trial.Scope> scopes = new LinkedHashSet<>();
    samples.forEach(s -> scopes.add(s.trial().scope()));
    for (Trial.Scope scope : scopes) {
      List<String> tools = new ArrayList<>();
      Set<Trial.Mode> modes = new LinkedHashSet<>();
      TreeSet<Integer> threads = new TreeSet<>();
      samples.stream().map(Sample::trial).filter(t -> t.scope() == scope).forEach(t -> {
        if (!tools.contains(t.tool())) {
          tools.add(t.tool());
        }
        modes.add(t.mode());
        threads.add(t.threads());
      });
      List<String> references = tools.stream().filter(t -> !t.equals(ResultsTable.OURS)).toList();
      int fewest = threads.first();
      StringBuilder rows = new StringBuilder();
      for (Trial.Mode mode : modes) {
        for (int t : threads) {
          for (String reference : references) {
            List<Double> r = ratios(byTrial, scope, mode, ResultsTable.OURS, t, reference, t, Measurement::wallSeconds);
            if (!r.isEmpty()) {
              rows.append(String.format(Locale.ROOT, "| %s | %d | relabel / %s | %s |%n", mode.text(), t, reference,
                  summary(r)));
            }
          }
          // Each step from the kernel's floor towards relabel: the JVM's (floor-jni), JNA's (floor-jna).
          for (List<String> step : List.of(List.of(ResultsTable.FLOOR_JNI, ResultsTable.FLOOR),
              List.of(ResultsTable.FLOOR_JNA, ResultsTable.FLOOR), List.of(ResultsTable.FLOOR_JNA, ResultsTable.FLOOR_JNI))) {
            List<Double> r = ratios(byTrial, scope, mode, step.get(0), t, step.get(1), t, Measurement::wallSeconds);
            if (!r.isEmpty()) {
              rows.append(String.format(Locale.ROOT, "| %s | %d | %s / %s | %s |%n", mode.text(), t, step.get(0),
                  step.get(1), summary(r)));
            }
          }
          if (t == fewest) {
            continue;
          }
          for (String tool : tools) {
            List<Double> r = ratios(byTrial, scope, mode, tool, fewest, tool, t, Measurement::wallSeconds);
            if (!r.isEmpty()) {
              rows.append(String.format(Locale.ROOT, "| %s | %d | %s speed-up | %s |%n", mode.text(), t, tool,
                  summary(r)));
            }
          }
          List<Double> walk = ratios(byTrial, scope, mode, ResultsTable.OURS, fewest, ResultsTable.OURS, t,
              Measurement::walkSeconds);
          if (!walk.isEmpty()) {
            rows.append(String.format(Locale.ROOT, "| %s | %d | relabel speed-up, walk only | %s |%n", mode.text(), t,
                summary(walk)));
          }
        }
      }
      if (!rows.isEmpty()) {
        md.append("\nPaired, scope `").append(scope.text()).append("`: each ratio taken within one repetition (runs "
            + "seconds apart), then their median, range and count. Speed-up: a tool's wall at -T ")
            .append(fewest).append(" over wall at -T N of the same tool.\n\n| mode | -T | ratio | median (range, n) |\n"
                + "| --- | --- | --- | --- |\n").append(rows);
      }
    }
    return md.toString();
  }
}
