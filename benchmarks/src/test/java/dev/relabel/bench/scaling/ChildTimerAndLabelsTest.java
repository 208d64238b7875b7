package dev.relabel.bench.scaling;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.bench.tree.TreeLabels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.fixtures.AttrTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildTimerAndLabelsTest {
  /** A child that burns some CPU in a shell loop, so that its user time is measurable. */
  private static final List<String> BUSY = List.of("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done");

  @Test
  void gnuTimeReportsTheChildsCpuAndPeakRss(@TempDir Path scratch) throws Exception {
    if (!Files.isExecutable(ChildTimer.GNU_TIME)) {
      AttrTrees.unavailable("time(1) is not installed (apt-get install time)"); // fails when CI=true
    }
    Measurement m = new ChildTimer(scratch).run(BUSY, Map.of());
    assertTrue(m.userSeconds() > 0, m.toString());
    assertTrue(m.peakRssKb() > 0, m.toString());
    assertTrue(m.wallSeconds() >= m.userSeconds() * 0.5, m.toString());
    try (var left = Files.list(scratch)) {
      assertEquals(0, left.count(), "no report or stderr file left behind");
    }
  }

  @Test
  void procFallbackReportsTheChildsCpuWithoutRss(@TempDir Path scratch) throws Exception {
    Measurement m = new ChildTimer(scratch, false).run(BUSY, Map.of());
    assertTrue(m.userSeconds() > 0, m.toString());
    assertEquals(-1, m.peakRssKb());
  }

  @Test
  void aFailingChildIsAnErrorWithItsMessage(@TempDir Path scratch) {
    for (boolean gnuTime : new boolean[] {true, false}) {
      if (gnuTime && !Files.isExecutable(ChildTimer.GNU_TIME)) {
        continue;
      }
      IOException e = assertThrows(IOException.class, () -> new ChildTimer(scratch, gnuTime)
          .run(List.of("sh", "-c", "echo broken >&2; exit 3"), Map.of()));
      assertTrue(e.getMessage().contains("exited 3") && e.getMessage().contains("broken"), e.getMessage());
    }
  }

  @Test
  void scrambleGivesEveryEntryTheWrongLabel(@TempDir Path dir) throws Exception {
    AttrTrees.requireTools(false);
    Path tree = Files.createDirectory(dir.resolve("tree"));
    TreeGenerator.generate(tree, 300, 3);
    assertEquals(301, TreeLabels.scramble(tree));
    List<String> entries = AttrTrees.entries(tree, dir);
    assertEquals(301, entries.size());
    for (String entry : entries) {
      assertEquals(TreeLabels.WRONG, AttrTrees.label(entry.equals(".") ? tree : tree.resolve(entry), dir), entry);
    }
  }
}
