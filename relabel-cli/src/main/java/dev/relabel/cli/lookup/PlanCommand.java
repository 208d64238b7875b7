package dev.relabel.cli.lookup;

import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.PolicyOption;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Failure;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.setfiles.SystemPolicy;
import dev.relabel.match.LabelMatcher;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.report.ChangeSummary;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.report.RelabelReport;
import dev.relabel.walk.Relabeler;
import dev.relabel.walk.NativeFileTree;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code relabel plan}: what a relabel would do, before doing it: a walk that writes nothing and
 * prints a summary (how many entries would change, by directory and by type transition, and how
 * long a real run would take), with an exit status a CI job can gate on.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Walk each PATH (and everything beneath it) as 'relabel setfiles' would, writing nothing, and"
          + " print a summary of what a relabel would change: how many entries, the directories"
          + " with the most changes, the type transitions (OLD_TYPE -> NEW_TYPE), and an estimate"
          + " of a real run's time from this walk's own. With -C, plan a policy update: only"
          + " entries that PREVIOUS and the current policy label differently count, and subtrees"
          + " no changed spec can reach are not read.",
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:nothing would change",
      "1:some entry would change",
      "2:the plan could not be made (usage error, unusable policy, an entry that could not be read)",
    })
public final class PlanCommand implements Callable<Integer>, ExitStatus.Declared {
  /**
   * How much longer a run is than its check when every entry changes: 34%, from setfiles -F
   * against a check of the same 172k-entry tree at -T 1, JVM start left out (benchmarks/RESULTS.md).
   */
  private static final double WRITE_COST = 0.34;

  @ParentCommand
  private IoHost parent;

  @Override
  public ExitStatus.Scheme exitScheme() {
    return ExitStatus.Scheme.PLAN;
  }

  @Mixin
  private PolicyOption policyFile;

  @Option(names = {"-C", "--previous"}, paramLabel = "PREVIOUS_FILE_CONTEXTS",
      description = "Plan the update from this policy to the current one.")
  private Path previous;

  @Option(names = "-F", description = "Compare whole contexts, not only types (setfiles -F).")
  private boolean force;

  @Option(names = "-e", paramLabel = "DIR", description = "Leave out this directory and everything beneath it.")
  private List<Path> excludes = new ArrayList<>();

  @Mixin
  private ThreadsOption threads;

  @Option(names = "--top", paramLabel = "N", defaultValue = "10",
      description = "How many directories and transitions to list (default ${DEFAULT-VALUE}).")
  private int top;

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "The trees to plan for.")
  private List<Path> paths;

  @Mixin
  private JsonOption json;

  @Override
  public Integer call() throws IOException, PolicyException {
    try (Reporting reporting = Reporting.start(parent.io(), "plan", json, null, false, true)) {
      return reporting.finish(plan(reporting));
    }
  }

  private int plan(Reporting reporting) throws IOException, PolicyException {
    Io io = reporting.io();
    Path policy = policyFile.file();
    LabelMatcher matcher = PolicyOption.matcher(policy);
    Path root = policyFile.root();
    RelabelOptions options = RelabelOptions.defaults().withThreads(threads.count(0)).withForce(force).withDryRun(true)
        .withExcludes(excludes).withOneFilesystem(true);
    if (root != null) {
      options = options.withAlternateRoot(root);
    }
    reporting.threads(options.workerCount());
    ChangeSummary summary = new ChangeSummary();
    RelabelReport report;
    try (Relabeler relabeler = new Relabeler(matcher, SystemPolicy.customizableTypes(), options,
        new NativeFileTree(), reporting.listener(summary))) {
      Relabeler planned = previous == null ? relabeler
          : relabeler.changedSince(LabelMatcher.compile(PolicyLoader.lenient().load(previous)));
      report = planned.run(paths);
    }
    reporting.completed(report);
    print(new PrintStream(io.out(), true, io.charset()), io.charset(), policy, report, summary);
    for (RelabelReport.Failure failure : report.failures()) {
      io.err().write(("relabel: " + failure.pathText() + ": " + failure.message() + "\n").getBytes(io.charset()));
    }
    if (!report.failures().isEmpty()) {
      return ExitStatus.PLAN_ERROR;
    }
    return report.relabeled() > 0 ? ExitStatus.PLAN_CHANGES : ExitStatus.OK;
  }

  private void print(PrintStream out, Charset charset, Path policy, RelabelReport report, ChangeSummary summary) {
    double seconds = report.elapsed().toNanos() / 1e9;
    out.printf(Locale.ROOT, "Plan for %s with %s%s:%n", String.join(" ", paths.stream().map(PathBytes::text).toList()),
        PathBytes.text(policy), previous == null ? "" : " (from " + PathBytes.text(previous) + ")");
    out.printf(Locale.ROOT, "  %,d of %,d entries would be relabelled%n", report.relabeled(), report.visited());
    double perSecond = seconds > 0 ? report.visited() / seconds : 0;
    double estimate = seconds * (1 + WRITE_COST * report.relabeled() / Math.max(1, report.visited()));
    out.printf(Locale.ROOT, "  walked in %.2f s (%,.0f entries/s); a relabel would take about %.2f s"
        + " (plus the program's start)%n", seconds, perSecond, estimate);
    if (report.relabeled() == 0) {
      return;
    }
    out.print(ChangeSummary.table("By directory", summary.byDirectory(), top));
    out.print(ChangeSummary.table("By type (old -> new)", summary.byTransition(), top));
  }
}
