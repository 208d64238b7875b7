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
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relabel-bench scaling}: relabel's {@code setfiles} against the reference setfiles (and
 * restorecon) at each {@code -T}, side by side on one tree, each tool a child process measured from
 * the outside (JVM start included for relabel). Writes results.csv, results.md and scaling.png.
 */
@Command(name = "scaling", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "Thread scaling of relabel against setfiles and restorecon on one tree.",
      "Runs alternate between tools (A B A B ...); medians are reported. Before every relabel run each "
          + "entry gets a wrong label again; check runs find every label right.",
      "Writes OUT/results.csv (every run), OUT/results.md (medians, ratios) and OUT/scaling.png."})
public final class ScalingCommand implements Callable<Integer> {
  static final Path DEFAULT_POLICY = Path.of("/etc/selinux/default/contexts/files/file_contexts");

  /** Where the tree comes from: exactly one. */
  static final class Input {
    @Option(names = "--tree", paramLabel = "DIR",
        description = "An existing tree, used in place: its labels are rewritten and left as the last run leaves them.")
    Path tree;

    @Option(names = "--mirror", paramLabel = "DIR", arity = "1..*",
        description = "Copy these directories' structure (directories, empty files, symlinks as symlinks, never "
            + "followed) under the work directory, at their own paths (DIR=/usr becomes TREE/usr).")
    List<Path> mirror;

    @Option(names = "--generate", paramLabel = "N",
        description = "Generate an FHS-shaped tree of N entries (deterministic by --seed).")
    Integer generate;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of --generate (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--threads", split = ",", defaultValue = "1,2", paramLabel = "N,...",
      description = "The -T values (default: ${DEFAULT-VALUE}).")
  List<Integer> threads;

  @Option(names = "--compare", split = ",", defaultValue = "setfiles", paramLabel = "TOOL,...",
      description = "References: setfiles, restorecon (default: ${DEFAULT-VALUE}).")
  List<String> compare;

  @Option(names = "--setfiles", paramLabel = "[NAME=]PATH",
      description = "A setfiles build to compare (repeatable; default /usr/sbin/setfiles). NAME names it in the "
          + "results (default setfiles, setfiles-2, ...).")
  List<String> setfiles = new ArrayList<>();

  @Option(names = "--restorecon", paramLabel = "PATH", defaultValue = "/usr/sbin/restorecon",
      description = "The restorecon to compare (default: ${DEFAULT-VALUE}).")
  Path restorecon;

  @Option(names = "--mode", defaultValue = "both", paramLabel = "check|relabel|both",
      description = "What to measure (default: ${DEFAULT-VALUE}).")
  String mode;

  @Option(names = "--repeat", defaultValue = "3", paramLabel = "K",
      description = "Runs per tool, -T and mode; the median is reported (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where the three result files go.")
  Path out;

  @Option(names = "--work", paramLabel = "DIR",
      description = "Where a generated or mirrored tree is made (default /opt when restorecon is compared, so that "
          + "its real paths get meaningful labels; /var/tmp otherwise, whose contents the policy leaves alone).")
  Path work;

  @Option(names = "--policy", paramLabel = "FILE", description = "file_contexts (default: ${DEFAULT-VALUE}).")
  Path policy = DEFAULT_POLICY;

  @Option(names = "--relabel", paramLabel = "PATH",
      description = "The relabel launcher (default: bin/relabel of this checkout).")
  Path relabel;

  @Option(names = "--keep", description = "Keep the generated or mirrored tree.")
  boolean keep;

  @Option(names = "--floor",
      description = "Also run the syscall floor: benchmarks/floor/check-floor.c (built here with cc -O2 -pthread), "
          + "the system calls of a check (or a relabel) and nothing else, at each -T, alternating with the tools.")
  boolean floor;

  @Option(names = "--jvm-floors",
      description = "Also run check-floor's walk on the JVM, relabel's runtime (benchmarks/floor/WalkFloor.java, "
          + "compiled here): floor-jna calls the kernel through JNA as relabel does, floor-jni through a JNI library "
          + "(benchmarks/floor/walk-floor-jni.c, built here with cc). Between the floor, floor-jni, floor-jna and "
          + "relabel lie the JVM's, JNA's and relabel's own shares of a check. Implies --floor; needs a JDK.")
  boolean jvmFloors;

  @Option(names = "--java", defaultValue = "java", paramLabel = "PATH",
      description = "The java of the JVM floors (default: ${DEFAULT-VALUE}).")
  String javaCommand;

  @Option(names = "--walk-time", defaultValue = "check", paramLabel = "check|all|none",
      description = "Which of relabel's runs get --json (the report to a file), to record the walk's own seconds "
          + "(walkSeconds) beside the wall: check runs (default: there the report costs nothing measurable), all "
          + "(relabel runs too, where the report's per-change aggregate adds to the wall), or none.")
  String walkTime;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter log = spec.commandLine().getOut();
    try {
      return run(log, err);
    } catch (IOException | IllegalArgumentException e) {
      err.println("relabel-bench scaling: " + message(e));
      err.flush();
      return 1;
    }
  }

  /** What went wrong: a file error's message is only its path, so its kind is added. */
  static String message(Exception e) {
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() == null) {
      String kind = e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
          : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
          : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
          : e.getClass().getSimpleName();
      return f.getMessage() + ": " + kind;
    }
    return e.getMessage();
  }

  private int run(PrintWriter log, PrintWriter err) throws IOException, InterruptedException {
    List<Trial.Mode> modes = switch (mode) {
      case "both" -> List.of(Trial.Mode.RELABEL, Trial.Mode.CHECK);
      case "check", "relabel" -> List.of(Trial.Mode.parse(mode));
      default -> throw new IllegalArgumentException("--mode is check, relabel or both, not " + mode);
    };
    if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1)) {
      throw new IllegalArgumentException("--threads takes counts of 1 or more: " + threads);
    }
    for (String c : compare) {
      if (!c.equals("setfiles") && !c.equals("restorecon")) {
        throw new IllegalArgumentException("--compare takes setfiles and restorecon, not " + c);
      }
    }
    if (!Files.isRegularFile(policy)) {
      throw new IOException(policy + " is missing (apt-get install selinux-policy-default)");
    }
    Path launcher = relabel != null ? relabel : defaultLauncher();
    if (!Files.isExecutable(launcher)) {
      throw new IOException(launcher + " is not executable (build with mvn -B -DskipTests package)");
    }
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("relabel-bench-scratch-");
    Path workDir = null;
    try {
      List<Tool> tools = new ArrayList<>();
      tools.add(new Tool(ResultsTable.OURS, oursVersion(launcher), Tool.Kind.RELABEL,
          List.of(launcher.toString(), "setfiles"), Map.of(), walkTimed()));
      if (compare.contains("setfiles")) {
        tools.addAll(setfilesTools());
      }
      if (compare.contains("restorecon")) {
        Tool tool = restoreconTool(scratch, err);
        if (tool != null) {
          tools.add(tool);
        }
      }
      if (floor || jvmFloors) {
        Path floorProgram = FloorProgram.build(checkout(launcher), scratch);
        String cc = Versions.output(List.of("cc", "--version"));
        tools.add(new Tool(ResultsTable.FLOOR, "check-floor, " + FloorProgram.SOURCE + " built here with cc -O2"
            + (cc == null ? "" : " (" + cc.lines().findFirst().orElse("") + ")"), Tool.Kind.FLOOR,
            List.of(floorProgram.toString()), Map.of()));
      }
      if (jvmFloors) {
        JvmFloor walk = JvmFloor.build(JvmFloor.Program.WALK, checkout(launcher), launcher, javaCommand, scratch);
        String on = JvmFloor.Program.WALK.source() + " compiled here, on " + javaCommand + " with relabel's JVM flags";
        tools.add(new Tool(ResultsTable.FLOOR_JNA, on + ", through JNA's direct mapping", Tool.Kind.FLOOR,
            walk.walk("jna"), Map.of()));
        tools.add(new Tool(ResultsTable.FLOOR_JNI, on + ", through " + JvmFloor.Program.WALK.jniSource + " built here with cc",
            Tool.Kind.FLOOR, walk.walk("jni"), Map.of()));
      }
      Map<Trial.Scope, List<String>> scopes = scopes(tools);

      Path tree;
      String source;
      if (input.tree != null) {
        tree = input.tree.toAbsolutePath().normalize();
        source = "the existing tree " + tree;
      } else {
        Path parent = work != null ? Files.createDirectories(work)
            : scopes.containsKey(Trial.Scope.LITERAL) ? Path.of("/opt") : Path.of("/var/tmp");
        workDir = Files.createTempDirectory(parent, "relabel-bench-");
        tree = workDir.resolve("tree");
        Files.createDirectory(tree);
        if (input.generate != null) {
          log.printf("generating %,d entries (seed %d) in %s%n", input.generate, seed, tree);
          log.flush();
          TreeGenerator.generate(tree, input.generate, seed);
          source = String.format(Locale.ROOT, "a generated FHS-shaped tree (`--generate %d --seed %d`)", input.generate, seed);
        } else {
          log.printf("mirroring %s in %s%n", input.mirror, tree);
          log.flush();
          TreeMirror.copy(input.mirror, tree, scratch);
          source = "a mirror of " + input.mirror + " (structure only: empty files)";
        }
      }
      long entries = TreeLabels.count(tree);
      log.printf("tree: %s, %,d entries%n", tree, entries);
      String floorMethod = null;
      // Each floor (check-floor, and the JVM's with --jvm-floors) must count the tree before it is measured.
      for (Tool tool : tools) {
        if (tool.kind() == Tool.Kind.FLOOR) {
          FloorProgram.Probe probe = FloorProgram.probe(tool.executable(), threads.get(threads.size() - 1), tree, scratch);
          boolean theFloor = tool.name().equals(ResultsTable.FLOOR);
          if (probe.entries() != entries) {
            throw new IOException((theFloor ? "the floor" : tool.name()) + " counted " + probe.entries() + " entries in "
                + tree + ", not " + entries);
          }
          log.println(tool.name() + ": " + probe.method());
          if (theFloor) {
            floorMethod = probe.method();
          }
        }
      }

      String loadBefore = Machine.loadAverage();
      Instant started = Instant.now();
      ChildTimer timer = new ChildTimer(scratch);
      Map<String, Tool> byName = new LinkedHashMap<>();
      tools.forEach(t -> byName.put(t.name(), t));
      List<Sample> samples = new ArrayList<>();
      Trial.Scope labelledFor = null;
      for (Trial trial : Schedule.plan(scopes, modes, threads, repeat)) {
        Tool tool = byName.get(trial.tool());
        if (trial.mode() == Trial.Mode.RELABEL) {
          TreeLabels.scramble(tree);
          labelledFor = null;
        } else if (labelledFor != trial.scope()) {
          // Check runs need every label right, as this scope sees the paths: relabel sets them once.
          timer.run(byName.get(ResultsTable.OURS).command(2, Trial.Mode.RELABEL, trial.scope(), tree, policy), Map.of());
          labelledFor = trial.scope();
        }
        sync();
        List<String> command = tool.command(trial.threads(), trial.mode(), trial.scope(), tree, policy);
        Measurement m;
        if (tool.reportsWalk(trial.mode())) {
          // The report goes to a file the child writes itself; it is read after the wall time is taken.
          Path report = Files.createTempFile(scratch, "report", ".json");
          m = timer.run(command, tool.environment(), report);
          m = m.withWalk(WalkSeconds.ofFile(report));
          Files.delete(report);
        } else {
          m = timer.run(command, tool.environment());
        }
        samples.add(new Sample(trial, tool.version(), entries, m));
        log.printf(Locale.ROOT, "%-8s %-8s -T %-3d #%d %-16s wall %7.3f s  user %7.3f  sys %7.3f  rss %s KB%s%n",
            trial.scope().text(), trial.mode().text(), trial.threads(), trial.repeat(), trial.tool(), m.wallSeconds(),
            m.userSeconds(), m.sysSeconds(), m.peakRssKb() < 0 ? "?" : Long.toString(m.peakRssKb()),
            Double.isNaN(m.walkSeconds()) ? "" : String.format(Locale.ROOT, "  walk %7.3f s", m.walkSeconds()));
        log.flush();
      }
      Instant finished = Instant.now();

      Map<Stats.Key, Stats.Median> medians = Stats.medians(samples);
      ResultsCsv.write(out.resolve("results.csv"), samples);
      String preamble = preamble(source, tree, entries, tools, timer, loadBefore, started, finished, scopes, floorMethod);
      ResultsCsv.writeWhole(out.resolve("results.md"), ResultsTable.render(preamble, medians)
          + PairedRatios.render(samples));
      boolean plotted = ScalingPlot.writeOrWarn(out.resolve("scaling.png"),
          String.format(Locale.ROOT, "Speed-up against threads, %,d entries", entries), medians, err);
      log.println("wrote " + out.resolve("results.csv") + ", results.md" + (plotted ? ", scaling.png" : ""));
      log.flush();
      return 0;
    } finally {
      if (workDir != null && !keep) {
        removeTree(workDir, scratch);
      }
      removeTree(scratch, null);
    }
  }

  /**
   * Which scopes to measure, with their tools in run order. The root scope is the setfiles
   * comparison; the literal scope exists for restorecon (which has no -r), and the setfiles
   * builds run there too, to be seen beside it on the same paths. relabel alone: the root scope.
   */
  static Map<Trial.Scope, List<String>> scopes(List<Tool> tools) {
    Map<Trial.Scope, List<String>> scopes = new LinkedHashMap<>();
    for (Trial.Scope scope : Trial.Scope.values()) {
      Tool.Kind reason = scope == Trial.Scope.ROOT ? Tool.Kind.SETFILES : Tool.Kind.RESTORECON;
      if (tools.stream().anyMatch(t -> t.kind() == reason)) {
        scopes.put(scope, tools.stream().filter(t -> t.supports(scope)).map(Tool::name).toList());
      }
    }
    if (scopes.isEmpty()) {
      scopes.put(Trial.Scope.ROOT, tools.stream().map(Tool::name).toList());
    }
    return scopes;
  }

  private List<Tool> setfilesTools() throws IOException, InterruptedException {
    List<String> specs = setfiles.isEmpty() ? List.of("/usr/sbin/setfiles") : setfiles;
    List<Tool> tools = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      String spec = specs.get(i);
      int eq = spec.indexOf('=');
      String name = eq > 0 ? "setfiles-" + spec.substring(0, eq) : i == 0 ? "setfiles" : "setfiles-" + (i + 1);
      Path path = Path.of(eq > 0 ? spec.substring(eq + 1) : spec);
      if (!Files.isExecutable(path)) {
        throw new IOException(path + " is missing or not executable (apt-get install policycoreutils)");
      }
      String version = Versions.ofPackagedFile(path);
      if (version == null) {
        version = (eq > 0 ? spec.substring(0, eq) + ", " : "") + "local build " + path;
      }
      tools.add(new Tool(name, version, Tool.Kind.SETFILES, List.of(path.toString()), Map.of()));
    }
    return tools;
  }

  private Tool restoreconTool(Path scratch, PrintWriter err) throws IOException, InterruptedException {
    if (!Files.isExecutable(restorecon)) {
      throw new IOException(restorecon + " is missing or not executable (apt-get install policycoreutils)");
    }
    Path shim;
    try {
      shim = PreloadShim.build(scratch);
    } catch (IOException e) {
      err.println("relabel-bench scaling: restorecon skipped: " + e.getMessage());
      err.flush();
      return null;
    }
    String version = Versions.ofPackagedFile(restorecon);
    return new Tool("restorecon", version == null ? "local build " + restorecon : version, Tool.Kind.RESTORECON,
        List.of(restorecon.toString()), Map.of("LD_PRELOAD", shim.toString()));
  }

  private static Path defaultLauncher() {
    String home = System.getProperty("relabel.home");
    return Path.of(home != null ? home : ".").resolve("bin/relabel").toAbsolutePath().normalize();
  }

  private Set<Trial.Mode> walkTimed() {
    return switch (walkTime) {
      case "check" -> Set.of(Trial.Mode.CHECK);
      case "all" -> Set.of(Trial.Mode.CHECK, Trial.Mode.RELABEL);
      case "none" -> Set.of();
      default -> throw new IllegalArgumentException("--walk-time is check, all or none, not " + walkTime);
    };
  }

  /** The checkout the harness belongs to: relabel-bench's relabel.home, or the launcher's ../.. */
  static Path checkout(Path launcher) {
    String home = System.getProperty("relabel.home");
    return home != null ? Path.of(home) : launcher.toAbsolutePath().getParent().getParent();
  }

  private static String oursVersion(Path launcher) throws InterruptedException {
    Path top = launcher.toAbsolutePath().getParent().getParent();
    String commit = Versions.output(List.of("git", "-C", top.toString(), "describe", "--always", "--dirty"));
    // Whether its walks read listings ahead with librelabel: the launcher names the file, or none.
    String librelabel = Versions.line(List.of(launcher.toString(), "--version"), "librelabel ");
    return "relabel " + (BenchMain.class.getPackage().getImplementationVersion() != null
        ? BenchMain.class.getPackage().getImplementationVersion() + " " : "") + (commit == null ? "" : "commit " + commit)
        + (librelabel == null ? "" : ", " + librelabel);
  }

  private String preamble(String source, Path tree, long entries, List<Tool> tools, ChildTimer timer,
      String loadBefore, Instant started, Instant finished, Map<Trial.Scope, List<String>> scopes, String floorMethod)
      throws InterruptedException {
    StringBuilder md = new StringBuilder("# Thread scaling: relabel against the reference tools\n\n");
    md.append(String.format(Locale.ROOT, "- Tree: %s, **%,d entries** (the root included), at `%s`.%n", source, entries, tree));
    md.append("- Policy: `").append(policy).append("`.\n");
    md.append("- Run: ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(" to ")
        .append(finished.truncatedTo(ChronoUnit.SECONDS)).append(", ").append(repeat)
        .append(" run(s) per tool, -T and mode, tools alternating run by run; medians reported.\n");
    md.append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs (")
        .append(Machine.cpuModel()).append("), Linux ").append(System.getProperty("os.version"))
        .append("; load average ").append(loadBefore).append(" before, ").append(Machine.loadAverage())
        .append(" after (a load above 0 means other work shared the cores).\n");
    md.append("- CPU and memory: ").append(timer.method()).append(".\n");
    md.append("- Tools:\n");
    for (Tool tool : tools) {
      md.append("  - `").append(tool.name()).append("`: ").append(tool.version()).append(": `")
          .append(String.join(" ", tool.command(1, Trial.Mode.RELABEL,
              tool.supports(Trial.Scope.ROOT) && scopes.containsKey(Trial.Scope.ROOT) ? Trial.Scope.ROOT : Trial.Scope.LITERAL,
              Path.of("TREE"), policy)))
          .append('`').append(tool.environment().isEmpty() ? "" : " with LD_PRELOAD=<is_selinux_enabled() returns 1>")
          .append('\n');
    }
    Tool ours = tools.get(0);
    md.append("- relabel's walk alone (`walkSeconds` of its `--json` report, written to a file): ")
        .append(ours.walkTimed().isEmpty() ? "not recorded (`--walk-time none`)"
            : ours.walkTimed().size() == 2 ? "in every run (`--walk-time all`: in relabel runs the report's per-change "
                + "aggregate adds to the wall)"
            : "in " + ours.walkTimed().iterator().next().text() + " runs, with `--json` there only (`--walk-time "
                + walkTime + "`)").append(".\n");
    if (floorMethod != null) {
      md.append("- The floor (`").append(FloorProgram.SOURCE).append("`): per directory openat and getdents64, per entry "
          + "fstatat and a read of security.selinux (in relabel mode, and a write of `" + Tool.FLOOR_LABEL + "`); no "
          + "policy, no matching; -T threads sharing one stack of opened directories. "
          + "Here: ").append(floorMethod).append(".\n");
    }
    md.append("- relabel mode: each entry gets `").append(TreeLabels.WRONG)
        .append("` before every run, and `-F` relabels all of them. check mode: every label is already right.\n");
    return md.toString();
  }



  private static void sync() throws IOException, InterruptedException {
    new ProcessBuilder("sync").redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }

  /** rm -rf: names are bytes, which rm handles whatever the JVM's file name charset. */
  private static void removeTree(Path dir, Path scratch) throws IOException, InterruptedException {
    new ProcessBuilder("rm", "-rf", "--one-file-system", dir.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }
}
