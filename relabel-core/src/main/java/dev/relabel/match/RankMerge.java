package dev.relabel.match;

import dev.relabel.policy.FileType;

/**
 * Tries candidate specs in libselinux's order when they come as several rank-sorted lists (one per
 * trie node met, plus a directory's own list): a k-way merge that stops at the first match.
 */
final class RankMerge {
  private RankMerge() {}

  /** The first of the candidates in {@code lists[0..count)} that admits {@code type} and matches. */
  static Label first(LabelMatcher matcher, int[][] lists, int count, String key, FileType type) {
    if (count == 1) {
      for (int rank : lists[0]) {
        CompiledSpec spec = matcher.spec(rank);
        if (spec.fileType.admits(type) && spec.matches(key)) {
          return spec.label();
        }
      }
      return Label.noMatch();
    }
    int[] heads = new int[count];
    while (true) {
      int best = -1;
      int bestRank = Integer.MAX_VALUE;
      for (int i = 0; i < count; i++) {
        int[] list = lists[i];
        if (heads[i] < list.length && list[heads[i]] < bestRank) {
          bestRank = list[heads[i]];
          best = i;
        }
      }
      if (best < 0) {
        return Label.noMatch();
      }
      heads[best]++;
      CompiledSpec spec = matcher.spec(bestRank);
      if (spec.fileType.admits(type) && spec.matches(key)) {
        return spec.label();
      }
    }
  }
}
