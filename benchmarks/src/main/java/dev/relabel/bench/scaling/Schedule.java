package dev.relabel.bench.scaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The order of the runs. Tools alternate run by run (A B A B ...), so that a slow drift of the
 * machine (another job starting, the page cache, thermal state) falls on every tool alike instead
 * of on whichever ran last; every tool finishes repeat r of a (scope, mode, threads) before any
 * starts repeat r + 1.
 */
public final class Schedule {
  private Schedule() {}

  /**
   * Every trial, in run order: scope by scope (in the map's order), then mode, then threads, then
   * repeat, then tool.
   */
  public static List<Trial> plan(Map<Trial.Scope, List<String>> toolsByScope, List<Trial.Mode> modes,
      List<Integer> threads, int repeat) {
    if (repeat < 1) {
      throw new IllegalArgumentException("repeat must be at least 1: " + repeat);
    }
    List<Trial> trials = new ArrayList<>();
    toolsByScope.forEach((scope, tools) -> {
      for (Trial.Mode mode : modes) {
        for (int t : threads) {
          for (int r = 1; r <= repeat; r++) {
            for (String tool : tools) {
              trials.add(new Trial(scope, mode, t, r, tool));
            }
          }
        }
      }
    });
    return List.copyOf(trials);
  }
}
