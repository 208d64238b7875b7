package dev.relabel.cli;

import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Getopt;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.QuickVerb;
import dev.relabel.cli.common.UsageErrors;
import dev.relabel.cli.common.Version;
import dev.relabel.cli.lookup.LookupCommand;
import dev.relabel.cli.setfiles.RestoreconCommand;
import dev.relabel.cli.setfiles.SetfilesCommand;
import java.io.PrintWriter;
import java.util.List;

/**
 * The short invocations package scripts and admins run most ({@code restorecon}, {@code setfiles}
 * and {@code lookup} with a few letters, {@code --json} and some paths, and {@code relabel
 * --version}) without picocli, whose command model cost more than the rest of such a run.
 * {@link Getopt} reads the arguments, each verb and mixin applies its own options (beside their
 * picocli declarations), and the verb runs as on picocli's path ({@link QuickVerb#run}), its
 * failures reported by the same {@link FailureReport} (and, with {@code --json}, ended in the
 * report as picocli's handler ends it: {@link QuickVerb#failed}). Whenever the quick path cannot
 * be sure that picocli would read the arguments the same way, and find no usage error, it declines
 * and picocli's path runs: only a run with the same output, status and labels on both is ever
 * taken here ({@code QuickPathDifferentialTest} checks that).
 */
final class QuickPath {
  private QuickPath() {}

  /** Usage errors the quick path cannot meet: it declines every argument vector that has one. */
  private static final class NoUsageErrors implements UsageErrors {
    @Override
    public RuntimeException error(String message) {
      return new IllegalStateException("a usage error on the quick path: " + message);
    }
  }

  /** The verb {@code name}, as its class builds it, when the quick path can run it; null otherwise. */
  static QuickVerb verb(String name) {
    return switch (name) {
      case "restorecon" -> new RestoreconCommand();
      case "setfiles" -> new SetfilesCommand();
      case "lookup" -> new LookupCommand();
      default -> null;
    };
  }

  /** The verb {@code args} name, its options read; null when the quick path declines them. */
  static QuickVerb read(String[] args, Io io) {
    QuickVerb verb = args.length == 0 ? null : verb(args[0]);
    if (verb == null) {
      return null;
    }
    List<String> operands = Getopt.read(args, 1, verb).operands();
    return operands != null && verb.operands(operands, io.environment()) ? verb : null;
  }

  /** Runs {@code args} on {@code io} when the quick path takes them: the exit status; null when it declines. */
  static Integer run(String[] args, Io io) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // What picocli prints for the top command's --version, without building its model first.
      PrintWriter out = io.outWriter();
      for (String line : Version.lines()) {
        out.println(line);
      }
      out.flush();
      return 0;
    }
    QuickVerb verb = read(args, io);
    if (verb == null) {
      return null;
    }
    try {
      return verb.run(io, new NoUsageErrors());
    } catch (Exception | Error e) {
      FailureReport failure = FailureReport.report(e, io.errWriter(), verb.exitScheme());
      verb.failed(io, failure);
      return failure.status();
    }
  }
}
