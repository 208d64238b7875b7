package dev.relabel.match;

import dev.relabel.policy.FileType;

/**
 * Tries candidate specs in libselinux's order when they come as several rank-sorted lists (one run
 * of the prefix index's ranks per trie node met, plus a directory's own candidates): a k-way merge
 * that stops at the first match.
 */
final class RankMerge {
  private RankMerge() {}

  /**
   * The first of the candidates that admits {@code type} and matches {@code key}: those of
   * {@code first} (sorted; null for none) and those of {@code runs[0..count)}, each a
   * {@link PrefixIndex#rankRun} of {@code ranks} ({@code runs} may be null when {@code count} is 0).
   * The runs are used up: their starts advance.
   *
   * @param firstProgress with {@code first}: each one's {@link CompiledSpec#childProgress} for the
   *     directory whose child {@code key} is, its name starting at {@code nameStart}
   * @param firstNameHeads with {@code first}: each one's {@link CompiledSpec#childNameHead} there,
   *     compared first
   */
  static Label first(LabelMatcher matcher, int[] first, int[] firstProgress, String[] firstNameHeads, int[] ranks,
      long[] runs, int count, String key, int nameStart, FileType type) {
    int next = 0;
    int firstLength = first == null ? 0 : first.length;
    if (count == 0) {
      for (; next < firstLength; next++) {
        CompiledSpec spec = matcher.spec(first[next]);
        if (triesChild(spec, key, nameStart, firstProgress[next], firstNameHeads[next], type)) {
          return spec.label();
        }
      }
      return Label.noMatch();
    }
    if (count == 1 && firstLength == 0) {
      for (int at = (int) (runs[0] >>> 32), end = (int) runs[0]; at < end; at++) {
        CompiledSpec spec = matcher.spec(ranks[at]);
        if (spec.fileType.admits(type) && spec.matches(key)) {
          return spec.label();
        }
      }
      return Label.noMatch();
    }
    while (true) {
      int firstRank = next < firstLength ? first[next] : Integer.MAX_VALUE;
      int best = lowestRun(ranks, runs, count, firstRank);
      int bestRank = best < 0 ? firstRank : ranks[(int) (runs[best] >>> 32)];
      if (bestRank == Integer.MAX_VALUE) {
        return Label.noMatch();
      }
      CompiledSpec spec = matcher.spec(bestRank);
      boolean matches;
      if (best < 0) {
        matches = triesChild(spec, key, nameStart, firstProgress[next], firstNameHeads[next], type);
        next++;
      } else {
        runs[best] += 1L << 32;
        matches = spec.fileType.admits(type) && spec.matches(key);
      }
      if (matches) {
        return spec.label();
      }
    }
  }

  /** Whether {@code spec}, one of a directory's candidates, matches the child {@code key}. */
  private static boolean triesChild(CompiledSpec spec, String key, int nameStart, int progress, String nameHead,
      FileType type) {
    return (nameHead == null || key.startsWith(nameHead, nameStart)) && spec.fileType.admits(type)
        && spec.matchesChild(key, nameStart, progress);
  }

  /**
   * Which of the runs {@code runs[0..count)} of {@code ranks} has the lowest next rank, if that is
   * below {@code bound}; -1 when none does (or all are used up).
   */
  static int lowestRun(int[] ranks, long[] runs, int count, int bound) {
    int best = -1;
    int bestRank = bound;
    for (int i = 0; i < count; i++) {
      long run = runs[i];
      int start = (int) (run >>> 32);
      if (start < (int) run && ranks[start] < bestRank) {
        bestRank = ranks[start];
        best = i;
      }
    }
    return best;
  }
}
