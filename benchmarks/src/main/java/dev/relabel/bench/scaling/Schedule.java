package dev.relabel.bench.scaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The order of the runs. Tools alternate run by run (A B A B ...), and so do thread counts: each
 * repetition runs every tool at every {@code -T} before the next repetition starts. A slow drift of
 * the machine (another job starting, the page cache, thermal state) then falls on every tool and
 * every {@code -T} alike, instead of on whichever ran last; a speed-up compares runs made minutes
 * apart at most, not a block of -T 1 runs with a later block of -T 2 runs.
 */
public final class Schedule {
  private Schedule() {}

  /**
   * Every trial, in run order: scope by scope (in the map's order), then mode, then repeat, then
   * threads, then tool.
   */
  public static List<Trial> plan(Map<Trial.Scope, List<String>> toolsByScope, List<Trial.Mode> modes,
      List<Integer> threads, int repeat) {
    if (repeat < 1) {
      throw new IllegalArgumentException("repeat must be at least 1: " + repeat);
    }
    List<Trial> trials = new ArrayList<>();
    toolsByScope.forEach((scope, tools) -> {
      for (Trial.Mode mode : modes) {
        for (int r = 1; r <= repeat; r++) {
          for (int t : threads) {
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
