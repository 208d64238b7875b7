package dev.relabel.bench.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.relabel.bench.scaling.Trial.Mode;
import dev.relabel.bench.scaling.Trial.Scope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleAndStatsTest {
  @Test
  void toolsAlternateRunByRun() {
    Map<Scope, List<String>> tools = new LinkedHashMap<>();
    tools.put(Scope.ROOT, List.of("relabel", "setfiles"));
    tools.put(Scope.LITERAL, List.of("relabel", "setfiles", "restorecon"));
    List<Trial> plan = Schedule.plan(tools, List.of(Mode.RELABEL, Mode.CHECK), List.of(1, 2), 3);
    assertEquals((2 + 3) * 2 * 2 * 3, plan.size());
    assertEquals(List.of(
        new Trial(Scope.ROOT, Mode.RELABEL, 1, 1, "relabel"),
        new Trial(Scope.ROOT, Mode.RELABEL, 1, 1, "setfiles"),
        new Trial(Scope.ROOT, Mode.RELABEL, 2, 1, "relabel"),
        new Trial(Scope.ROOT, Mode.RELABEL, 2, 1, "setfiles"),
        new Trial(Scope.ROOT, Mode.RELABEL, 1, 2, "relabel")), plan.subList(0, 5), "A B A B, -T 1 2 1 2");
    // Within each (scope, mode): repetition r runs every tool at every -T, tools in turn, before
    // r + 1 starts; so -T 1 and -T 2 runs alternate too.
    for (int i = 1; i < plan.size(); i++) {
      Trial a = plan.get(i - 1);
      Trial b = plan.get(i);
      if (a.scope() != b.scope() || a.mode() != b.mode()) {
        continue;
      }
      List<String> order = tools.get(a.scope());
      if (a.repeat() == b.repeat() && a.threads() == b.threads()) {
        assertEquals(order.indexOf(a.tool()) + 1, order.indexOf(b.tool()), a + " then " + b);
      } else {
        assertEquals(order.get(order.size() - 1), a.tool(), a + " then " + b);
        assertEquals(order.get(0), b.tool(), a + " then " + b);
        if (a.repeat() == b.repeat()) {
          assertEquals(2, b.threads(), a + " then " + b);
        } else {
          assertEquals(a.repeat() + 1, b.repeat());
          assertEquals(List.of(2, 1), List.of(a.threads(), b.threads()), a + " then " + b);
        }
      }
    }
    assertEquals(new Trial(Scope.LITERAL, Mode.CHECK, 2, 3, "restorecon"), plan.get(plan.size() - 1));
    assertThrows(IllegalArgumentException.class, () -> Schedule.plan(tools, List.of(Mode.CHECK), List.of(1), 0));
  }

  @Test
  void scopesFollowTheReferences() {
    Tool ours = new Tool("relabel", "v", Tool.Kind.RELABEL, List.of("bin/relabel", "setfiles"), Map.of());
    Tool setfiles = new Tool("setfiles", "v", Tool.Kind.SETFILES, List.of("setfiles"), Map.of());
    Tool restorecon = new Tool("restorecon", "v", Tool.Kind.RESTORECON, List.of("restorecon"), Map.of());
    assertEquals(Map.of(Scope.ROOT, List.of("relabel", "setfiles")), ScalingCommand.scopes(List.of(ours, setfiles)));
    assertEquals(Map.of(Scope.LITERAL, List.of("relabel", "restorecon")),
        ScalingCommand.scopes(List.of(ours, restorecon)), "restorecon has no -r");
    assertEquals(List.of(Scope.ROOT, Scope.LITERAL),
        List.copyOf(ScalingCommand.scopes(List.of(ours, setfiles, restorecon)).keySet()));
    assertEquals(List.of("relabel", "setfiles", "restorecon"),
        ScalingCommand.scopes(List.of(ours, setfiles, restorecon)).get(Scope.LITERAL));
    assertEquals(Map.of(Scope.ROOT, List.of("relabel")), ScalingCommand.scopes(List.of(ours)));

    // The command lines: setfiles' -r only in the root scope, restorecon's -R always.
    java.nio.file.Path tree = java.nio.file.Path.of("/t");
    java.nio.file.Path fc = java.nio.file.Path.of("/fc");
    assertEquals(List.of("bin/relabel", "setfiles", "-T", "2", "-F", "-r", "/t", "/fc", "/t"),
        ours.command(2, Mode.RELABEL, Scope.ROOT, tree, fc));
    assertEquals(List.of("setfiles", "-T", "1", "/fc", "/t"), setfiles.command(1, Mode.CHECK, Scope.LITERAL, tree, fc));
    assertEquals(List.of("restorecon", "-R", "-T", "2", "-F", "/t"),
        restorecon.command(2, Mode.RELABEL, Scope.LITERAL, tree, fc));
  }

  @Test
  void medianOfOddAndEvenCounts() {
    assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
    assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 3.0, 2.0)));
    assertEquals(7.0, Stats.median(List.of(7.0)));
    assertEquals(1.5, Stats.median(List.of(1.0, Double.NaN, 2.0)), "an unknown figure is left out");
    assertTrue(Double.isNaN(Stats.median(List.of())));
  }

  @Test
  void mediansPerToolModeAndThreads() {
    List<Sample> samples = new ArrayList<>();
    double[] ours = {1.0, 5.0, 2.0};
    double[] theirs = {10.0, 30.0, 20.0};
    for (int r = 0; r < 3; r++) {
      samples.add(sample("relabel", 1, r + 1, ours[r], 100 + r));
      samples.add(sample("setfiles", 1, r + 1, theirs[r], 50));
      samples.add(sample("relabel", 2, r + 1, ours[r] / 2, -1));
    }
    Map<Stats.Key, Stats.Median> medians = Stats.medians(samples);
    assertEquals(3, medians.size());
    Stats.Median m = medians.get(new Stats.Key(Scope.ROOT, "relabel", Mode.RELABEL, 1));
    assertEquals(2.0, m.wallSeconds(), "median, not mean (the outlier 5.0 does not count)");
    assertEquals(101, m.peakRssKb());
    assertEquals(3, m.runs());
    assertEquals(20.0, medians.get(new Stats.Key(Scope.ROOT, "setfiles", Mode.RELABEL, 1)).wallSeconds());
    assertEquals(-1, medians.get(new Stats.Key(Scope.ROOT, "relabel", Mode.RELABEL, 2)).peakRssKb(),
        "unknown RSS stays unknown");

    String md = ResultsTable.render("# t\n", medians);
    assertTrue(md.contains("| relabel | 1 | 2.000 (3) | 20.000 (3) | 0.100 |"), md);
  }

  @Test
  void csvRoundTripAndReplot(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    List<Sample> samples = List.of(sample("relabel", 1, 1, 2.5, 150000), sample("setfiles", 2, 1, 10.25, -1),
        new Sample(new Trial(Scope.LITERAL, Mode.CHECK, 2, 3, "restorecon"), "policycoreutils 3.4-1", 10,
            new Measurement(1.5, Double.NaN, Double.NaN, -1)));
    java.nio.file.Path csv = dir.resolve("results.csv");
    ResultsCsv.write(csv, samples);
    assertEquals(samples, ResultsCsv.read(csv));

    java.nio.file.Path png = dir.resolve("scaling.png");
    assertEquals(0, new picocli.CommandLine(new BenchMain()).execute("plot", "--csv", csv.toString(), "--out",
        png.toString()));
    java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
    assertEquals(ScalingPlot.WIDTH, image.getWidth());
    assertEquals(ScalingPlot.HEIGHT, image.getHeight());
  }

  @Test
  void aPlotThatCannotBeWrittenIsAWarning(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path notADirectory = java.nio.file.Files.writeString(dir.resolve("file"), "");
    java.io.StringWriter err = new java.io.StringWriter();
    Map<Stats.Key, Stats.Median> medians = Stats.medians(List.of(sample("relabel", 1, 1, 2.5, 150000)));
    assertFalse(ScalingPlot.writeOrWarn(notADirectory.resolve("scaling.png"), "t", medians,
        new java.io.PrintWriter(err)));
    assertTrue(err.toString().startsWith("relabel-bench: scaling.png not written ("), err.toString());
    assertTrue(ScalingPlot.writeOrWarn(dir.resolve("scaling.png"), "t", medians, new java.io.PrintWriter(err)));
    assertEquals(ScalingPlot.WIDTH, javax.imageio.ImageIO.read(dir.resolve("scaling.png").toFile()).getWidth());
  }

  @Test
  void childRusageParsers() {
    Measurement m = ChildTimer.fromTime(1.5, "Command exited with non-zero status 1\n0.52 0.10 151234");
    assertEquals(new Measurement(1.5, 0.52, 0.10, 151234), m);
    Measurement s = ChildTimer.fromStat(2.0,
        "123 (sh (odd) name) S 1 123 123 0 -1 4194304 100 200 0 0 1 2 52 10 20 0 1 0 100 1000 200");
    assertEquals(new Measurement(2.0, 0.52, 0.10, -1), s);
  }

  @Test
  void theFloorsCommandLines() {
    Tool floor = new Tool("floor", "v", Tool.Kind.FLOOR, List.of("/x/check-floor"), Map.of());
    Tool ours = new Tool("relabel", "v", Tool.Kind.RELABEL, List.of("bin/relabel", "setfiles"), Map.of(),
        java.util.Set.of(Mode.CHECK));
    assertEquals(List.of("/x/check-floor", "-T", "2", "TREE"),
        floor.command(2, Mode.CHECK, Scope.ROOT, java.nio.file.Path.of("TREE"), java.nio.file.Path.of("fc")));
    // In relabel mode it writes one label on every entry.
    assertEquals(List.of("/x/check-floor", "-T", "1", "-w", Tool.FLOOR_LABEL, "TREE"),
        floor.command(1, Mode.RELABEL, Scope.LITERAL, java.nio.file.Path.of("TREE"), java.nio.file.Path.of("fc")));
    // relabel's check runs carry --json (their walk time); its relabel runs, by default, do not.
    java.nio.file.Path tree = java.nio.file.Path.of("TREE");
    java.nio.file.Path fc = java.nio.file.Path.of("fc");
    assertTrue(ours.reportsWalk(Mode.CHECK));
    assertEquals(List.of("bin/relabel", "setfiles", "--json", "-T", "2", "-r", "TREE", "fc", "TREE"),
        ours.command(2, Mode.CHECK, Scope.ROOT, tree, fc));
    assertFalse(ours.reportsWalk(Mode.RELABEL));
    assertEquals(List.of("bin/relabel", "setfiles", "-T", "1", "-F", "-r", "TREE", "fc", "TREE"),
        ours.command(1, Mode.RELABEL, Scope.ROOT, tree, fc));
    assertFalse(floor.reportsWalk(Mode.CHECK));
    assertFalse(new Tool("setfiles", "v", Tool.Kind.SETFILES, List.of("setfiles"), Map.of(), java.util.Set.of(Mode.CHECK))
        .reportsWalk(Mode.CHECK), "only relabel has a --json report");
  }

  @Test
  void theTablesShowTheFloorAndTheWalkAlone() {
    List<Sample> samples = List.of(
        walkSample("relabel", 1, 2.0, 1.2), walkSample("setfiles-3.11", 1, 3.0, Double.NaN),
        walkSample("floor", 1, 1.0, Double.NaN),
        walkSample("relabel", 2, 1.4, 0.6), walkSample("setfiles-3.11", 2, 2.9, Double.NaN),
        walkSample("floor", 2, 0.625, Double.NaN));
    Map<Stats.Key, Stats.Median> medians = Stats.medians(samples);
    assertEquals(0.6, medians.get(new Stats.Key(Scope.ROOT, "relabel", Mode.CHECK, 2)).walkSeconds());
    assertTrue(Double.isNaN(medians.get(new Stats.Key(Scope.ROOT, "floor", Mode.CHECK, 1)).walkSeconds()));
    String md = ResultsTable.render("# t\n", medians);
    // relabel / floor beside relabel / setfiles, at each -T.
    assertTrue(md.contains("| mode | -T | relabel | setfiles-3.11 | floor | relabel / setfiles-3.11 | relabel / floor |\n"), md);
    assertTrue(md.contains("| check | 1 | 2.000 (1) | 3.000 (1) | 1.000 (1) | 0.667 | 2.000 |\n"), md);
    assertTrue(md.contains("| check | 2 | 1.400 (1) | 2.900 (1) | 0.625 (1) | 0.483 | 2.240 |\n"), md);
    // The speed-up: the floor's (this machine's ceiling) beside the tools', the walk's own last.
    assertTrue(md.contains("| mode | -T | ideal | relabel | setfiles-3.11 | floor | relabel, walk only |\n"), md);
    assertTrue(md.contains("| check | 2 | 2.00 | 1.43 | 1.03 | 1.60 | 2.00 |\n"), md);
    assertTrue(md.contains("| check | 1 | 2.000 | 1.200 | 0.800 | 0.60 |\n"), md);
    // Each tool over the floor in the same mode at the same -T.
    assertTrue(md.contains("| relabel | check | 1 | 2.000 | 1.000 | 2.00 |\n"
        + "| relabel, walk only | check | 1 | 1.200 | 1.000 | 1.20 |\n"
        + "| relabel | check | 2 | 1.400 | 0.625 | 2.24 |\n| relabel, walk only | check | 2 | 0.600 | 0.625 | 0.96 |\n"
        + "| setfiles-3.11 | check | 1 | 3.000 | 1.000 | 3.00 |\n| setfiles-3.11 | check | 2 | 2.900 | 0.625 | 4.64 |\n"),
        md);
    // The plot draws the floor's line too.
    assertEquals(List.of("relabel", "setfiles-3.11", "floor"),
        ScalingPlot.series(medians, 1).stream().map(ScalingPlot.Series::tool).toList());
  }

  @Test
  void pairedRatiosAreTakenWithinARepetition() {
    // Repetition 2 ran in a slow spell (everything 1.5x); repetition 3 has no setfiles run.
    List<Sample> samples = new java.util.ArrayList<>();
    double[] spell = {1.0, 1.5, 1.0};
    for (int r = 1; r <= 3; r++) {
      double k = spell[r - 1];
      samples.add(repeatSample("relabel", 1, r, 2.0 * k, 1.6 * k));
      if (r < 3) {
        samples.add(repeatSample("setfiles", 1, r, 4.0 * k, Double.NaN));
      }
      samples.add(repeatSample("relabel", 2, r, 1.1 * k, 0.8 * k));
      samples.add(repeatSample("setfiles", 2, r, 4.0 * k, Double.NaN));
    }
    String md = PairedRatios.render(samples);
    assertTrue(md.contains("| check | 1 | relabel / setfiles | 0.50 (0.50–0.50, 2) |\n"), md);
    assertTrue(md.contains("| check | 2 | relabel / setfiles | 0.28 (0.28–0.28, 3) |\n"), md);
    assertTrue(md.contains("| check | 2 | relabel speed-up | 1.82 (1.82–1.82, 3) |\n"), md);
    assertTrue(md.contains("| check | 2 | setfiles speed-up | 1.00 (1.00–1.00, 2) |\n"), md);
    assertTrue(md.contains("| check | 2 | relabel speed-up, walk only | 2.00 (2.00–2.00, 3) |\n"), md);
    // The ratio of setfiles' medians puts the slow spell's -T 1 run (one of two) against a fast -T 2.
    String medians = ResultsTable.render("# t\n", Stats.medians(samples));
    assertTrue(medians.contains("| check | 2 | 2.00 | 1.82 | 1.25 | 2.00 |\n"), medians);
    assertEquals("", PairedRatios.render(List.of(repeatSample("relabel", 1, 1, 2.0, 1.0))));
  }

  private static Sample repeatSample(String tool, int threads, int repeat, double wall, double walk) {
    return new Sample(new Trial(Scope.ROOT, Mode.CHECK, threads, repeat, tool), "v", 10,
        new Measurement(wall, wall / 2, 0.1, 1000, walk));
  }

  @Test
  void walkSecondsComeFromTheReport() {
    assertEquals(0.25, WalkSeconds.of("{\"counts\":{\"visited\":3},\"walkSeconds\":0.25,\"durationMs\":400}"));
    assertEquals(1.5e-4, WalkSeconds.of("{\"walkSeconds\" : 1.5E-4}"));
    assertTrue(Double.isNaN(WalkSeconds.of("{\"durationMs\":400,\"exitStatus\":1}")));
    // A path that spells the field is escaped in the report, and is not the field.
    assertTrue(Double.isNaN(WalkSeconds.of("{\"changes\":[{\"path\":\"/x/\\\"walkSeconds\\\":9\"}]}")));
  }

  @Test
  void aResultsCsvFromBeforeTheWalkColumnIsStillRead(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path csv = dir.resolve("results.csv");
    java.nio.file.Files.writeString(csv, ResultsCsv.HEADER_BEFORE_WALK + "\nrelabel,v,root,1,check,1,10,2.500,1.250,0.100,150000\n");
    assertEquals(List.of(sample("relabel", 1, 1, 2.5, 150000)).get(0).cost(), ResultsCsv.read(csv).get(0).cost());
    assertTrue(Double.isNaN(ResultsCsv.read(csv).get(0).cost().walkSeconds()));
    List<Sample> walked = List.of(walkSample("relabel", 2, 1.4, 0.625));
    ResultsCsv.write(csv, walked);
    assertEquals(walked, ResultsCsv.read(csv));
  }

  private static Sample walkSample(String tool, int threads, double wall, double walk) {
    return new Sample(new Trial(Scope.ROOT, Mode.CHECK, threads, 1, tool), "v", 10,
        new Measurement(wall, wall / 2, 0.1, 1000, walk));
  }

  private static Sample sample(String tool, int threads, int repeat, double wall, long rss) {
    return new Sample(new Trial(Scope.ROOT, Mode.RELABEL, threads, repeat, tool), "v", 10,
        new Measurement(wall, wall / 2, 0.1, rss));
  }
}
