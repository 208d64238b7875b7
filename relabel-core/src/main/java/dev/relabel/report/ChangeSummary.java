package dev.relabel.report;

import dev.relabel.context.SecurityContext;
import dev.relabel.policy.PathBytes;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The changes of a run, aggregated instead of listed: how many per directory and per type
 * transition ("tmp_t -&gt; etc_t"). A listener: workers add to per-key {@link LongAdder}s, and
 * only changes are counted, so the cost is one map update per change, none per unchanged entry.
 */
public final class ChangeSummary implements RelabelListener {
  /** What an unlabeled entry's type is shown as. */
  public static final String UNLABELED = "(unlabeled)";

  /** One aggregate line: what, and how many. */
  public record Count(String key, long count) {}

  private final ConcurrentHashMap<String, LongAdder> byDirectory = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> byTransition = new ConcurrentHashMap<>();
  private final LongAdder changes = new LongAdder();

  @Override
  public void changed(RelabelReport.Change change) {
    changes.increment();
    byDirectory.computeIfAbsent(directoryOf(change.path()), k -> new LongAdder()).increment();
    byTransition.computeIfAbsent(typeOf(change.from()) + " -> " + typeOf(change.to()), k -> new LongAdder()).increment();
  }

  /** Changes counted so far. */
  public long changes() {
    return changes.sum();
  }

  /** Directories by number of changed entries in them (not beneath), most first; ties by name. */
  public List<Count> byDirectory() {
    return sorted(byDirectory);
  }

  /** Type transitions by number of entries, most first; ties by name. */
  public List<Count> byTransition() {
    return sorted(byTransition);
  }

  /**
   * {@code counts} as text: "TITLE:" ("TITLE (top TOP of N):" when there are more), then the first
   * {@code top}, one line each, the count right-aligned.
   */
  public static String table(String title, List<Count> counts, int top) {
    StringBuilder text = new StringBuilder(title);
    if (counts.size() > top) {
      text.append(" (top ").append(top).append(" of ").append(counts.size()).append(')');
    }
    text.append(":\n");
    for (Count count : counts.subList(0, Math.min(top, counts.size()))) {
      text.append(String.format(java.util.Locale.ROOT, "  %,10d  %s%n", count.count(), count.key()));
    }
    return text.toString();
  }

  private static List<Count> sorted(Map<String, LongAdder> counts) {
    return counts.entrySet().stream()
        .map(e -> new Count(e.getKey(), e.getValue().sum()))
        .sorted(Comparator.comparingLong(Count::count).reversed().thenComparing(Count::key))
        .toList();
  }

  private static String directoryOf(byte[] path) {
    int slash = path.length - 1;
    while (slash > 0 && path[slash] != '/') {
      slash--;
    }
    return slash <= 0 ? "/" : PathBytes.text(Arrays.copyOf(path, slash));
  }

  private static String typeOf(String context) {
    if (context == null) {
      return UNLABELED;
    }
    return SecurityContext.parse(context).map(SecurityContext::type).orElse(context);
  }
}
