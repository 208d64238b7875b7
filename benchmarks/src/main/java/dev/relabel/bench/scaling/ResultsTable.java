package dev.relabel.bench.scaling;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * results.md: per scope, the median wall time of each tool at each {@code -T}, with relabel's
 * ratio to each reference beside it (below 1 is faster); then each tool's speed-up over its own
 * fewest-threads run, and CPU time and peak RSS.
 */
public final class ResultsTable {
  static final String OURS = "relabel";

  private ResultsTable() {}

  /** The markdown; {@code preamble} (what was run, where) goes first. */
  public static String render(String preamble, Map<Stats.Key, Stats.Median> medians) {
    StringBuilder md = new StringBuilder(preamble).append('\n');
    Set<Trial.Scope> scopes = new LinkedHashSet<>();
    medians.keySet().forEach(k -> scopes.add(k.scope()));
    for (Trial.Scope scope : scopes) {
      List<String> tools = new ArrayList<>();
      Set<Trial.Mode> modes = new LinkedHashSet<>();
      TreeSet<Integer> threads = new TreeSet<>();
      medians.keySet().stream().filter(k -> k.scope() == scope).forEach(k -> {
        if (!tools.contains(k.tool())) {
          tools.add(k.tool());
        }
        modes.add(k.mode());
        threads.add(k.threads());
      });
      List<String> references = tools.stream().filter(t -> !t.equals(OURS)).toList();
      md.append("\n## ").append(scope == Trial.Scope.ROOT
          ? "Scope `root`: the tree labelled as if it were `/` (`setfiles -r TREE`)"
          : "Scope `literal`: the tree labelled at its real path (restorecon has no `-r`)").append("\n\n");
      md.append("Median wall seconds (runs); JVM start included for relabel. Ratio = relabel / reference: below 1, relabel is faster.\n\n");
      md.append("| mode | -T |");
      tools.forEach(t -> md.append(' ').append(t).append(" |"));
      references.forEach(r -> md.append(" relabel / ").append(r).append(" |"));
      md.append("\n|").append(" --- |".repeat(2 + tools.size() + references.size())).append('\n');
      for (Trial.Mode mode : modes) {
        for (int t : threads) {
          md.append("| ").append(mode.text()).append(" | ").append(t).append(" |");
          for (String tool : tools) {
            Stats.Median m = medians.get(new Stats.Key(scope, tool, mode, t));
            md.append(' ').append(m == null ? "-" : String.format(Locale.ROOT, "%.3f (%d)", m.wallSeconds(), m.runs()))
                .append(" |");
          }
          Stats.Median ours = medians.get(new Stats.Key(scope, OURS, mode, t));
          for (String reference : references) {
            Stats.Median ref = medians.get(new Stats.Key(scope, reference, mode, t));
            md.append(' ').append(ours == null || ref == null ? "-"
                : String.format(Locale.ROOT, "%.3f", ours.wallSeconds() / ref.wallSeconds())).append(" |");
          }
          md.append('\n');
        }
      }
      int fewest = threads.first();
      md.append("\nSpeed-up: each tool's median wall at -T ").append(fewest)
          .append(" over its median wall at -T N (ideal: N / ").append(fewest).append(").\n\n| mode | -T | ideal |");
      tools.forEach(t -> md.append(' ').append(t).append(" |"));
      md.append("\n|").append(" --- |".repeat(3 + tools.size())).append('\n');
      for (Trial.Mode mode : modes) {
        for (int t : threads) {
          md.append("| ").append(mode.text()).append(" | ").append(t).append(" | ")
              .append(String.format(Locale.ROOT, "%.2f", (double) t / fewest)).append(" |");
          for (String tool : tools) {
            Stats.Median base = medians.get(new Stats.Key(scope, tool, mode, fewest));
            Stats.Median m = medians.get(new Stats.Key(scope, tool, mode, t));
            md.append(' ').append(base == null || m == null ? "-"
                : String.format(Locale.ROOT, "%.2f", base.wallSeconds() / m.wallSeconds())).append(" |");
          }
          md.append('\n');
        }
      }
      md.append("\nMedian CPU seconds (user + sys) / peak RSS (MB) of the child process.\n\n| mode | -T |");
      tools.forEach(t -> md.append(' ').append(t).append(" |"));
      md.append("\n|").append(" --- |".repeat(2 + tools.size())).append('\n');
      for (Trial.Mode mode : modes) {
        for (int t : threads) {
          md.append("| ").append(mode.text()).append(" | ").append(t).append(" |");
          for (String tool : tools) {
            Stats.Median m = medians.get(new Stats.Key(scope, tool, mode, t));
            md.append(' ').append(m == null ? "-" : String.format(Locale.ROOT, "%.2f + %.2f / %s", m.userSeconds(),
                m.sysSeconds(), m.peakRssKb() < 0 ? "?" : Long.toString(Math.round(m.peakRssKb() / 1024.0)))).append(" |");
          }
          md.append('\n');
        }
      }
    }
    return md.toString();
  }
}
