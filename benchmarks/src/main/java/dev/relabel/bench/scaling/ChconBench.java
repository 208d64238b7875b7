package dev.relabel.bench.scaling;

import dev.relabel.bench.tree.TreeGenerator;
import dev.relabel.bench.tree.TreeMirror;
import dev.relabel.bench.tree.TreeLabels;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relabel-bench chcon}: coreutils' {@code chcon -R CONTEXT TREE} against
 * {@code relabel chcon -R -T N CONTEXT TREE}, side by side on one tree, each a child process
 * measured from the outside (JVM start included), runs alternating. Two modes: {@code relabel}
 * (every entry had another label before each run) and {@code repeat} (every label already right:
 * a container volume relabelled again at each start). Writes OUT/chcon.md and OUT/chcon.csv.
 */
@Command(name = "chcon", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "relabel chcon -R against coreutils' chcon -R on one tree, one context for every entry.",
      "Runs alternate between the tools (A B, then B A, ...); medians are reported. In relabel mode each entry gets"
          + " another label before every run; in repeat mode every label is already the context.",
      "Writes OUT/chcon.md (medians, ratios, entries/s) and OUT/chcon.csv (every run)."})
public final class ChconBench implements Callable<Integer> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  ScalingCommand.Input input;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of --generate (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--threads", split = ",", defaultValue = "2", paramLabel = "N,...",
      description = "relabel's -T values (default: ${DEFAULT-VALUE}); chcon has one thread.")
  List<Integer> threads;

  @Option(names = "--mode", defaultValue = "both", paramLabel = "relabel|repeat|both",
      description = "What to measure (default: ${DEFAULT-VALUE}).")
  String mode;

  @Option(names = "--repeat", defaultValue = "5", paramLabel = "K",
      description = "Runs per tool, -T and mode; the median is reported (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--context", defaultValue = "system_u:object_r:container_file_t:s0:c1,c2",
      description = "The context (default: ${DEFAULT-VALUE}, podman's :Z).")
  String context;

  @Option(names = "--chcon", defaultValue = "/usr/bin/chcon", paramLabel = "PATH",
      description = "The chcon to compare (default: ${DEFAULT-VALUE}).")
  Path chcon;

  @Option(names = "--relabel", paramLabel = "PATH", description = "The relabel launcher (default: bin/relabel of this checkout).")
  Path relabel;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where chcon.md and chcon.csv go.")
  Path out;

  @Option(names = "--work", paramLabel = "DIR", defaultValue = "/var/tmp",
      description = "Where a generated or mirrored tree is made (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--keep", description = "Keep the generated or mirrored tree.")
  boolean keep;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** One measured run. */
  record Run(String mode, String tool, int threads, int repeat, Measurement measurement) {}

  @Override
  public Integer call() throws Exception {
    PrintWriter log = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return run(log);
    } catch (IOException | IllegalArgumentException e) {
      err.println("relabel-bench chcon: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private int run(PrintWriter log) throws IOException, InterruptedException {
    List<String> modes = switch (mode) {
      case "both" -> List.of("relabel", "repeat");
      case "relabel", "repeat" -> List.of(mode);
      default -> throw new IllegalArgumentException("--mode is relabel, repeat or both, not " + mode);
    };
    if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1) || repeat < 1) {
      throw new IllegalArgumentException("--threads and --repeat take counts of 1 or more");
    }
    Path launcher = relabel != null ? relabel
        : Path.of(System.getProperty("relabel.home", ".")).resolve("bin/relabel").toAbsolutePath().normalize();
    if (!Files.isExecutable(launcher)) {
      throw new IOException(launcher + " is not executable (build with mvn -B -DskipTests package)");
    }
    if (!Files.isExecutable(chcon)) {
      throw new IOException(chcon + " is missing (apt-get install coreutils)");
    }
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("relabel-bench-chcon-scratch-");
    Path workDir = null;
    try {
      Path tree;
      String source;
      if (input.tree != null) {
        tree = input.tree.toAbsolutePath().normalize();
        source = "the existing tree " + tree;
      } else {
        workDir = Files.createTempDirectory(work, "relabel-bench-chcon-");
        tree = Files.createDirectory(workDir.resolve("tree"));
        if (input.generate != null) {
          log.printf("generating %,d entries (seed %d) in %s%n", input.generate, seed, tree);
          log.flush();
          TreeGenerator.generate(tree, input.generate, seed);
          source = String.format(Locale.ROOT, "a generated FHS-shaped tree (`--generate %d --seed %d`)", input.generate,
              seed);
        } else {
          log.printf("mirroring %s in %s%n", input.mirror, tree);
          log.flush();
          TreeMirror.copy(input.mirror, tree, scratch);
          source = "a mirror of " + input.mirror + " (structure only: empty files)";
        }
      }
      long entries = TreeLabels.count(tree);
      log.printf("tree: %s, %,d entries%n", tree, entries);
      log.flush();
      String loadBefore = Machine.loadAverage();
      Instant started = Instant.now();
      ChildTimer timer = new ChildTimer(scratch);
      Map<String, List<String>> tools = new LinkedHashMap<>();
      tools.put("chcon", List.of(chcon.toString(), "-R", context, tree.toString()));
      for (int t : threads) {
        tools.put("relabel -T " + t,
            List.of(launcher.toString(), "chcon", "-R", "-T", String.valueOf(t), context, tree.toString()));
      }
      List<Run> runs = new ArrayList<>();
      for (String m : modes) {
        if (m.equals("repeat")) {
          // Every label right before the first run; each run then leaves it so.
          timer.run(tools.get("chcon"), Map.of());
        }
        for (int r = 1; r <= repeat; r++) {
          List<String> order = new ArrayList<>(tools.keySet());
          if (r % 2 == 0) {
            java.util.Collections.reverse(order);
          }
          for (String tool : order) {
            if (m.equals("relabel")) {
              TreeLabels.scramble(tree);
            }
            sync();
            Measurement measured = timer.run(tools.get(tool), Map.of());
            int t = tool.equals("chcon") ? 1 : Integer.parseInt(tool.substring(tool.lastIndexOf(' ') + 1));
            runs.add(new Run(m, tool, t, r, measured));
            log.printf(Locale.ROOT, "%-8s #%d %-14s wall %7.3f s  user %7.3f  sys %7.3f  rss %s KB  load %s%n", m, r,
                tool, measured.wallSeconds(), measured.userSeconds(), measured.sysSeconds(),
                measured.peakRssKb() < 0 ? "?" : Long.toString(measured.peakRssKb()), Machine.loadAverage());
            log.flush();
          }
        }
      }
      Instant finished = Instant.now();
      writeCsv(runs, entries);
      ResultsCsv.writeWhole(out.resolve("chcon.md"), table(runs, entries, source, tools, timer, loadBefore, started,
          finished));
      log.println("wrote " + out.resolve("chcon.md") + " and chcon.csv");
      log.flush();
      return 0;
    } finally {
      if (workDir != null && !keep) {
        new ProcessBuilder("rm", "-rf", "--one-file-system", workDir.toString()).start().waitFor();
      }
      new ProcessBuilder("rm", "-rf", scratch.toString()).start().waitFor();
    }
  }

  private void writeCsv(List<Run> runs, long entries) throws IOException {
    StringBuilder csv = new StringBuilder("mode,tool,threads,repeat,entries,wall_s,user_s,sys_s,peak_rss_kb\n");
    for (Run r : runs) {
      Measurement m = r.measurement();
      csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.4f,%.4f,%.4f,%d%n", r.mode(), r.tool(), r.threads(),
          r.repeat(), entries, m.wallSeconds(), m.userSeconds(), m.sysSeconds(), m.peakRssKb()));
    }
    ResultsCsv.writeWhole(out.resolve("chcon.csv"), csv.toString());
  }

  private String table(List<Run> runs, long entries, String source, Map<String, List<String>> tools, ChildTimer timer,
      String loadBefore, Instant started, Instant finished) {
    StringBuilder md = new StringBuilder("# relabel chcon against coreutils chcon\n\n");
    md.append(String.format(Locale.ROOT, "- Tree: %s, **%,d entries** (the root included).%n", source, entries));
    md.append("- Context: `").append(context).append("`.\n");
    md.append("- Run: ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(" to ")
        .append(finished.truncatedTo(ChronoUnit.SECONDS)).append(", ").append(repeat)
        .append(" run(s) per tool and mode, alternating (A B, B A, ...); medians reported.\n");
    md.append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs (").append(Machine.cpuModel())
        .append("), Linux ").append(System.getProperty("os.version")).append("; load average ").append(loadBefore)
        .append(" before, ").append(Machine.loadAverage()).append(" after.\n");
    md.append("- CPU and memory: ").append(timer.method()).append(".\n");
    tools.forEach((name, command) -> md.append("  - `").append(name).append("`: `")
        .append(String.join(" ", command)).append("`\n"));
    md.append("\n| mode | tool | median wall s | min–max wall s | user s | sys s | peak RSS KB | entries/s | wall / chcon |\n");
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (String m : runs.stream().map(Run::mode).distinct().toList()) {
      double reference = median(runs, m, "chcon", Measurement::wallSeconds);
      for (String tool : tools.keySet()) {
        List<Run> mine = runs.stream().filter(r -> r.mode().equals(m) && r.tool().equals(tool)).toList();
        double wall = median(runs, m, tool, Measurement::wallSeconds);
        double min = mine.stream().mapToDouble(r -> r.measurement().wallSeconds()).min().orElse(0);
        double max = mine.stream().mapToDouble(r -> r.measurement().wallSeconds()).max().orElse(0);
        md.append(String.format(Locale.ROOT, "| %s | %s | %.3f | %.3f–%.3f | %.3f | %.3f | %.0f | %,.0f | %.2fx |%n", m,
            tool, wall, min, max, median(runs, m, tool, Measurement::userSeconds),
            median(runs, m, tool, Measurement::sysSeconds),
            median(runs, m, tool, x -> (double) x.peakRssKb()), entries / wall, wall / reference));
      }
    }
    return md.toString();
  }

  private static double median(List<Run> runs, String mode, String tool,
      java.util.function.ToDoubleFunction<Measurement> value) {
    double[] values = runs.stream().filter(r -> r.mode().equals(mode) && r.tool().equals(tool))
        .mapToDouble(r -> value.applyAsDouble(r.measurement())).sorted().toArray();
    if (values.length == 0) {
      return Double.NaN;
    }
    int half = values.length / 2;
    return values.length % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2;
  }



  private static void sync() throws IOException, InterruptedException {
    new ProcessBuilder("sync").redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }
}
