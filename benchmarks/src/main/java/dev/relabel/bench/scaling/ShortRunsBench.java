package dev.relabel.bench.scaling;

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
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relabel-bench short}: the runs package scripts and admins make most, one file each
 * ({@code relabel restorecon -n FILE}, {@code relabel setfiles -n FILE_CONTEXTS FILE},
 * {@code relabel lookup FILE}, {@code relabel --version}), against a bare {@code java -version}
 * with the launcher's JIT and collector flags (the JVM's own floor), the floors of a JVM program
 * on relabel's runtime ({@link JvmFloor}: its start with relabel.jar, and that plus JNA's first
 * call, or instead a JNI library's), and the reference setfiles on the same file: every command
 * once per round, rounds alternating the order, medians. Nothing is written: the policy is used
 * as it is, and the results say whether its compiled form was fresh.
 */
@Command(name = "short", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "One-file runs of relabel against a bare java -version and the reference setfiles.",
      "Each round runs every command once, in turn (the order reversed every other round); medians"
          + " are reported. Writes OUT/short.md (medians, min-max, ratio to java -version) and"
          + " OUT/short.csv (every run)."})
public final class ShortRunsBench implements Callable<Integer> {
  @Option(names = "--repeat", defaultValue = "21", paramLabel = "K", description = "Rounds (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--file", defaultValue = "/etc/passwd", paramLabel = "PATH",
      description = "The file each command looks up (default: ${DEFAULT-VALUE}); never written.")
  Path file;

  @Option(names = "--policy", defaultValue = "/etc/selinux/default/contexts/files/file_contexts", paramLabel = "FILE",
      description = "file_contexts for setfiles (default: ${DEFAULT-VALUE}).")
  Path policy;

  @Option(names = "--setfiles", paramLabel = "[NAME=]PATH",
      description = "A setfiles to compare (repeatable; default /usr/sbin/setfiles).")
  List<String> setfiles = new ArrayList<>();

  @Option(names = "--java", defaultValue = "java", paramLabel = "PATH", description = "The java of the floor (default: ${DEFAULT-VALUE}).")
  String javaCommand;

  @Option(names = "--relabel", paramLabel = "PATH", description = "The relabel launcher (default: bin/relabel of this checkout).")
  Path relabel;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where short.md and short.csv go.")
  Path out;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** The launcher's options that map the class data sharing archive where it was dumped for. */
  static final String FIXED_ADDRESS = "-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0";

  /** One measured run. */
  private record Run(String tool, int round, Measurement measurement) {}

  @Override
  public Integer call() throws Exception {
    if (repeat < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be at least 1");
    }
    Path launcher = relabel != null ? relabel
        : Path.of(System.getProperty("relabel.home", ".")).resolve("bin/relabel").toAbsolutePath().normalize();
    Map<String, List<String>> tools = new LinkedHashMap<>();
    // The environment of the commands that run with more than the harness's own.
    Map<String, Map<String, String>> environments = new LinkedHashMap<>();
    // The launcher's JIT and collector flags: what a relabel's JVM costs before relabel runs.
    List<String> javaVersion = List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    tools.put("java -version", plus(javaVersion, "-version"));
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("relabel-bench-short-");
    // The floors of a one-file run on this JVM: its start with relabel.jar, then also JNA's, and
    // instead a JNI library's (what relabel would cost with one of its own).
    JvmFloor floor = JvmFloor.build(JvmFloor.Program.SHORT, ScalingCommand.checkout(launcher), launcher, javaCommand,
        scratch);
    tools.put("JVM + relabel.jar (floor)", floor.withJar(file));
    tools.put("JVM + relabel.jar + JNA lgetxattr (floor)", floor.withJna(file));
    tools.put("JVM + relabel.jar + JNI lgetxattr (floor)", floor.withJni(file));
    tools.put("relabel --version", List.of(launcher.toString(), "--version"));
    tools.put("relabel restorecon -n FILE", List.of(launcher.toString(), "restorecon", "-n", file.toString()));
    tools.put("relabel setfiles -n FILE_CONTEXTS FILE",
        List.of(launcher.toString(), "setfiles", "-n", policy.toString(), file.toString()));
    tools.put("relabel lookup FILE", List.of(launcher.toString(), "lookup", file.toString()));
    // Since JDK-8294323 (17.0.5 and later) the JVM maps its class data sharing archive at a random
    // address and relocates every pointer in it at each start: a cost that grows with the archive
    // (relabel's holds its own classes too). Mapped at the address it was dumped for, as JDK 17 GA
    // did, the start is shorter and that region's address is known in advance: these rows measure
    // what that choice, left to each site (RELABEL_JAVA_OPTS), is worth.
    tools.put("java -version, CDS at its own address", plus(javaVersion, (FIXED_ADDRESS + " -version").split(" ")));
    tools.put("restorecon -n FILE, CDS at its own address", List.of(launcher.toString(), "restorecon", "-n",
        file.toString()));
    environments.put("restorecon -n FILE, CDS at its own address", Map.of("RELABEL_JAVA_OPTS", FIXED_ADDRESS));
    tools.put("lookup FILE, CDS at its own address", List.of(launcher.toString(), "lookup", file.toString()));
    environments.put("lookup FILE, CDS at its own address", Map.of("RELABEL_JAVA_OPTS", FIXED_ADDRESS));
    List<String> references = setfiles.isEmpty() ? List.of("/usr/sbin/setfiles") : setfiles;
    for (int i = 0; i < references.size(); i++) {
      String given = references.get(i);
      int eq = given.indexOf('=');
      String name = eq > 0 ? "setfiles " + given.substring(0, eq) : i == 0 ? "setfiles" : "setfiles-" + (i + 1);
      tools.put(name + " -n FILE_CONTEXTS FILE", List.of(eq > 0 ? given.substring(eq + 1) : given, "-n",
          policy.toString(), file.toString()));
    }
    String compiled = compiledPolicyState(launcher);
    PrintWriter log = spec.commandLine().getOut();
    try {
      ChildTimer timer = new ChildTimer(scratch);
      String loadBefore = Machine.loadAverage();
      Instant started = Instant.now();
      List<Run> runs = new ArrayList<>();
      List<String> names = new ArrayList<>(tools.keySet());
      for (int round = 1; round <= repeat; round++) {
        List<String> order = new ArrayList<>(names);
        if (round % 2 == 0) {
          java.util.Collections.reverse(order);
        }
        for (String tool : order) {
          Measurement measured = timer.run(tools.get(tool), environments.getOrDefault(tool, Map.of()));
          runs.add(new Run(tool, round, measured));
          log.printf(Locale.ROOT, "#%-3d %-40s wall %7.1f ms  rss %s KB%n", round, tool, measured.wallSeconds() * 1000,
              measured.peakRssKb() < 0 ? "?" : Long.toString(measured.peakRssKb()));
          log.flush();
        }
      }
      Instant finished = Instant.now();
      // One more run of each relabel command, with the class-loading log: where its start went.
      Map<String, StartTimeline> timelines = new LinkedHashMap<>();
      for (String tool : names) {
        if (tool.startsWith("relabel ")) {
          timelines.put(tool, StartTimeline.of(tools.get(tool), scratch));
        }
      }
      ResultsCsv.writeWhole(out.resolve("short.csv"), csv(runs));
      ResultsCsv.writeWhole(out.resolve("short.md"),
          table(runs, tools, environments, compiled, timer, loadBefore, started, finished) + timelines(timelines));
      log.println("wrote " + out.resolve("short.md") + " and short.csv");
      log.flush();
      return 0;
    } finally {
      new ProcessBuilder("rm", "-rf", scratch.toString()).start().waitFor();
    }
  }

  /** What {@code relabel compile --check} says of the policy the verbs load (nothing is compiled here). */
  private String compiledPolicyState(Path launcher) throws IOException, InterruptedException {
    Process check = new ProcessBuilder(launcher.toString(), "compile", "--check", "-f", policy.toString())
        .redirectErrorStream(true).start();
    String said = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    return check.waitFor() == 0 ? "fresh (relabel reads " + policy + ".relabel)"
        : "not used (" + said.replaceFirst("^relabel: ", "") + "): relabel reads the text";
  }

  private static String csv(List<Run> runs) {
    StringBuilder csv = new StringBuilder("tool,round,wall_s,user_s,sys_s,peak_rss_kb\n");
    for (Run r : runs) {
      Measurement m = r.measurement();
      csv.append(String.format(Locale.ROOT, "\"%s\",%d,%.4f,%.4f,%.4f,%d%n", r.tool(), r.round(), m.wallSeconds(),
          m.userSeconds(), m.sysSeconds(), m.peakRssKb()));
    }
    return csv.toString();
  }

  /** {@code command} followed by {@code words}. */
  private static List<String> plus(List<String> command, String... words) {
    List<String> whole = new ArrayList<>(command);
    whole.addAll(List.of(words));
    return whole;
  }

  private String table(List<Run> runs, Map<String, List<String>> tools, Map<String, Map<String, String>> environments,
      String compiled, ChildTimer timer, String loadBefore, Instant started, Instant finished) {
    StringBuilder md = new StringBuilder("# Short runs: one file\n\n");
    md.append("- File: `").append(file).append("`; policy `").append(policy).append("`, compiled policy ")
        .append(compiled).append(".\n");
    md.append("- Run: ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(" to ")
        .append(finished.truncatedTo(ChronoUnit.SECONDS)).append(", ").append(repeat)
        .append(" round(s), every command once per round, the order reversed every other round; medians.\n");
    md.append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs (")
        .append(Machine.cpuModel()).append("), Linux ").append(System.getProperty("os.version"))
        .append("; load average ").append(loadBefore).append(" before, ").append(Machine.loadAverage())
        .append(" after.\n");
    md.append("- Wall time from outside, process start to exit; CPU and memory: ").append(timer.method()).append(".\n");
    for (Map.Entry<String, List<String>> tool : tools.entrySet()) {
      Map<String, String> environment = environments.getOrDefault(tool.getKey(), Map.of());
      md.append("  - ").append(tool.getKey()).append(": `");
      environment.forEach((name, value) -> md.append(name).append("='").append(value).append("' "));
      md.append(String.join(" ", tool.getValue())).append("`\n");
    }
    md.append("\n| command | median ms | min–max ms | user + sys ms | peak RSS MB | / java -version |\n");
    md.append("| --- | --- | --- | --- | --- | --- |\n");
    double floor = median(runs, tools.keySet().iterator().next(), Measurement::wallSeconds);
    for (String tool : tools.keySet()) {
      List<Measurement> of = runs.stream().filter(r -> r.tool().equals(tool)).map(Run::measurement).toList();
      double wall = median(runs, tool, Measurement::wallSeconds);
      double min = of.stream().mapToDouble(Measurement::wallSeconds).min().orElse(0);
      double max = of.stream().mapToDouble(Measurement::wallSeconds).max().orElse(0);
      double cpu = median(runs, tool, m -> m.userSeconds() + m.sysSeconds());
      double rss = median(runs, tool, m -> (double) m.peakRssKb());
      md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f–%.1f | %.0f | %.0f | %.2fx |%n", tool, wall * 1000,
          min * 1000, max * 1000, cpu * 1000, rss / 1024, wall / floor));
    }
    return md.toString();
  }

  private static String timelines(Map<String, StartTimeline> timelines) {
    StringBuilder md = new StringBuilder("\n## Where a start goes\n\n");
    md.append("One more run of each relabel command with `-Xlog:class+load:file=F:uptime`: the classes it loaded,"
        + " how many did not come from the class data sharing archive, and the JVM uptime (ms) at which the first"
        + " class of each stage was loaded (`–`: never). Stages: ");
    md.append(String.join(", ", StartTimeline.STAGES.entrySet().stream()
        .map(stage -> stage.getKey() + " (`" + stage.getValue() + "`)").toList())).append(".\n\n");
    md.append(StartTimeline.header());
    for (Map.Entry<String, StartTimeline> timeline : timelines.entrySet()) {
      md.append(timeline.getValue().row(timeline.getKey())).append('\n');
    }
    return md.toString();
  }

  private static double median(List<Run> runs, String tool, java.util.function.ToDoubleFunction<Measurement> value) {
    return Stats.median(runs.stream().filter(r -> r.tool().equals(tool))
        .map(r -> value.applyAsDouble(r.measurement())).toList());
  }

}
