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
 * fewest-threads run (end to end, and for relabel its walk alone; the floor's is this machine's
 * ceiling), relabel's walk against its wall, each tool against the syscall floor at each -T (when
 * it ran), and CPU time and peak RSS.
 */
public final class ResultsTable {
  static final String OURS = "relabel";
  /** The syscall floor's name ({@link Tool.Kind#FLOOR}). */
  static final String FLOOR = "floor";
  /** check-floor's walk on the JVM through JNA, as relabel calls the kernel ({@code --jvm-floors}). */
  static final String FLOOR_JNA = "floor-jna";
  /** check-floor's walk on the JVM through a JNI library ({@code --jvm-floors}). */
  static final String FLOOR_JNI = "floor-jni";

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
      md.append("Median wall seconds (runs); JVM start included for relabel. Ratio = relabel / reference: below 1, relabel is faster.")
          .append("\n\n");
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
      // A speed-up needs a tool's runs at two -T at least. The floor's is the most this machine's
      // cores and kernel give a walk's system calls: the ceiling of relabel's speed-up here.
      List<String> scaled = tools.stream().filter(tool -> medians.keySet().stream()
          .anyMatch(k -> k.scope() == scope && k.tool().equals(tool) && k.threads() != fewest)).toList();
      List<String> walked = tools.stream().filter(tool -> medians.entrySet().stream()
          .anyMatch(e -> e.getKey().scope() == scope && e.getKey().tool().equals(tool)
              && !Double.isNaN(e.getValue().walkSeconds()))).toList();
      List<String> walkScaled = walked.stream().filter(scaled::contains).toList();
      if (!scaled.isEmpty()) {
        md.append("\nSpeed-up: each tool's median wall at -T ").append(fewest)
            .append(" over its median wall at -T N (ideal: N / ").append(fewest).append(")");
        md.append(walkScaled.isEmpty() ? "" : "; \"walk only\": the same of the walk's own seconds (`walkSeconds` of "
            + "--json: no JVM start, no policy load)").append(".\n\n| mode | -T | ideal |");
        scaled.forEach(t -> md.append(' ').append(t).append(" |"));
        walkScaled.forEach(t -> md.append(' ').append(t).append(", walk only |"));
        md.append("\n|").append(" --- |".repeat(3 + scaled.size() + walkScaled.size())).append('\n');
        for (Trial.Mode mode : modes) {
          for (int t : threads) {
            md.append("| ").append(mode.text()).append(" | ").append(t).append(" | ")
                .append(String.format(Locale.ROOT, "%.2f", (double) t / fewest)).append(" |");
            for (String tool : scaled) {
              md.append(' ').append(speedUp(medians, new Stats.Key(scope, tool, mode, fewest), t, Stats.Median::wallSeconds))
                  .append(" |");
            }
            for (String tool : walkScaled) {
              md.append(' ').append(speedUp(medians, new Stats.Key(scope, tool, mode, fewest), t, Stats.Median::walkSeconds))
                  .append(" |");
            }
            md.append('\n');
          }
        }
      }
      for (String tool : walked) {
        md.append("\n").append(tool).append("'s walk alone: median `walkSeconds` against the median wall; the rest is "
            + "the JVM's start, the policy's load and the exit.\n\n| mode | -T | wall | walk | rest | walk / wall |\n"
            + "| --- | --- | --- | --- | --- | --- |\n");
        for (Trial.Mode mode : modes) {
          for (int t : threads) {
            Stats.Median m = medians.get(new Stats.Key(scope, tool, mode, t));
            if (m != null && !Double.isNaN(m.walkSeconds())) {
              md.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %s | %s | %s |%n", mode.text(), t,
                  m.wallSeconds(), seconds(m.walkSeconds()), seconds(m.wallSeconds() - m.walkSeconds()),
                  ratio(m.walkSeconds(), m.wallSeconds(), "%.2f")));
            }
          }
        }
      }
      if (tools.contains(FLOOR)) {
        md.append("\nAgainst the syscall floor (`benchmarks/floor/check-floor.c`: the system calls of a check, or of a "
            + "relabel, and nothing else, on as many threads): each tool's median wall over the floor's in the same mode "
            + "at the same -T (1.00 would be a run that costs only its system calls).\n\n"
            + "| tool | mode | -T | wall | floor | / floor |\n| --- | --- | --- | --- | --- | --- |\n");
        for (String tool : tools) {
          for (Trial.Mode mode : modes) {
            for (int t : threads) {
              Stats.Median floor = medians.get(new Stats.Key(scope, FLOOR, mode, t));
              Stats.Median m = medians.get(new Stats.Key(scope, tool, mode, t));
              if (floor == null || m == null || tool.equals(FLOOR)) {
                continue;
              }
              md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %.3f | %s |%n", tool, mode.text(), t,
                  m.wallSeconds(), floor.wallSeconds(), ratio(m.wallSeconds(), floor.wallSeconds(), "%.2f")));
              if (!Double.isNaN(m.walkSeconds())) {
                md.append(String.format(Locale.ROOT, "| %s, walk only | %s | %d | %.3f | %.3f | %s |%n", tool,
                    mode.text(), t, m.walkSeconds(), floor.wallSeconds(),
                    ratio(m.walkSeconds(), floor.wallSeconds(), "%.2f")));
              }
            }
          }
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

  /** {@code base}'s figure over the same key's at {@code threads}, or "-" when either is missing. */
  private static String speedUp(Map<Stats.Key, Stats.Median> medians, Stats.Key base, int threads,
      java.util.function.ToDoubleFunction<Stats.Median> figure) {
    Stats.Median from = medians.get(base);
    Stats.Median to = medians.get(new Stats.Key(base.scope(), base.tool(), base.mode(), threads));
    return from == null || to == null ? "-" : ratio(figure.applyAsDouble(from), figure.applyAsDouble(to), "%.2f");
  }

  /** a / b in {@code format}, or "-" when either is unknown. */
  private static String ratio(double a, double b, String format) {
    return Double.isNaN(a) || Double.isNaN(b) ? "-" : String.format(Locale.ROOT, format, a / b);
  }

  private static String seconds(double s) {
    return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.3f", s);
  }
}
