package dev.relabel.bench.scaling;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Medians of the samples, per (scope, tool, mode, threads). */
public final class Stats {
  /** What the medians are grouped by. */
  public record Key(Trial.Scope scope, String tool, Trial.Mode mode, int threads) {
    static Key of(Trial trial) {
      return new Key(trial.scope(), trial.tool(), trial.mode(), trial.threads());
    }
  }

  /**
   * Medians of one group, and how many runs they are of; {@code walkSeconds} is the median of the
   * runs that reported their walk's own time (relabel's), NaN for a tool that reports none.
   */
  public record Median(double wallSeconds, double userSeconds, double sysSeconds, long peakRssKb, int runs,
      String version, long entries, double walkSeconds) {
    public Median(double wallSeconds, double userSeconds, double sysSeconds, long peakRssKb, int runs,
        String version, long entries) {
      this(wallSeconds, userSeconds, sysSeconds, peakRssKb, runs, version, entries, Double.NaN);
    }

    public double cpuSeconds() {
      return userSeconds + sysSeconds;
    }
  }

  private Stats() {}

  /** The median of the values; for an even count, the mean of the two middle ones. NaN when empty. */
  public static double median(Collection<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.removeIf(v -> v.isNaN());
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Medians per key, keys in the order their first sample came. */
  public static Map<Key, Median> medians(List<Sample> samples) {
    Map<Key, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : samples) {
      groups.computeIfAbsent(Key.of(s.trial()), k -> new ArrayList<>()).add(s);
    }
    Map<Key, Median> medians = new LinkedHashMap<>();
    groups.forEach((key, group) -> {
      List<Double> rss = new ArrayList<>();
      for (Sample s : group) {
        rss.add(s.cost().peakRssKb() < 0 ? Double.NaN : (double) s.cost().peakRssKb());
      }
      double medianRss = median(rss);
      medians.put(key, new Median(
          median(group.stream().map(s -> s.cost().wallSeconds()).toList()),
          median(group.stream().map(s -> s.cost().userSeconds()).toList()),
          median(group.stream().map(s -> s.cost().sysSeconds()).toList()),
          Double.isNaN(medianRss) ? -1 : Math.round(medianRss),
          group.size(), group.get(0).version(), group.get(0).entries(),
          median(group.stream().map(s -> s.cost().walkSeconds()).toList())));
    });
    return medians;
  }
}
