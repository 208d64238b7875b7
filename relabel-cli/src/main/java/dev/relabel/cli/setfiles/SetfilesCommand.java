package dev.relabel.cli.setfiles;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Getopt;
import dev.relabel.cli.common.HelpOrder;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.PicocliUsage;
import dev.relabel.cli.common.QuickVerb;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.UsageErrors;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.JsonReport;
import dev.relabel.cli.output.ProgressOptions;
import dev.relabel.policy.PolicyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relabel setfiles}: Debian's {@code setfiles} (policycoreutils 3.4) on the parallel
 * engine, with its options, its messages and its exit statuses. The quick path runs it without
 * picocli for the options whose letters {@link #option} (and its mixins') apply.
 */
@Command(
    name = "setfiles",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    separator = " ",
    usageHelpWidth = 100,
    customSynopsis = {
      "relabel setfiles [-CDFIimnpqvAjU] [-e DIR]... [-r ROOT] [-T N] [--json] [--[no-]progress] SPEC_FILE PATH...",
      "       relabel setfiles [-CDFIimnpqvAjU0] [-e DIR]... [-r ROOT] [-T N] [--json] [--[no-]progress] SPEC_FILE -f FILE|-s",
    },
    description = {
      "Set the SELinux label of each PATH, and of everything below it, to what SPEC_FILE (a"
          + " file_contexts, with its .local, .homedirs, .subs and .subs_dist) gives it, as"
          + " setfiles(8) does. Without -F only the type of a labelled entry is changed, and an"
          + " entry whose label has a customizable type (of the system policy, as libselinux reads"
          + " them) is left alone. Mount points are not"
          + " crossed. A PATH is expanded as setfiles expands it (glob(3) with ~, {a,b} and"
          + " wildcards; a PATH that matches nothing stands for itself); PATH/. and PATH/.. are"
          + " skipped. The contexts in SPEC_FILE are checked for syntax only, and a spec given"
          + " twice is an error.",
    },
    footerHeading = "%nOutput:%n",
    footer = {
      "Standard output: with -v, one line per change, 'Relabeled PATH from OLD to NEW', or"
          + " 'Would relabel PATH from OLD to NEW' with -n (OLD is '(null)' for an unlabelled"
          + " entry), and 'PATH not reset as customized by admin to CONTEXT'; always 'Warning no"
          + " default label for PATH' when no spec (or <<none>>) applies to a PATH given itself"
          + " (PATH below ROOT with -r). Paths are written as raw bytes. Lines of one run come"
          + " from several threads, so their order may vary from run to run with -T.",
      "",
      "Progress: with -p, standard output gets setfiles' own progress text when it is not a"
          + " terminal ('\\rNk' per 1024 entries; when / is one of the PATHs, '\\rP%%' of the inodes"
          + " in use on every seclabel filesystem and '\\rPATH 100.0%%' after each PATH), then a"
          + " newline; on a terminal, and by default whenever"
          + " standard error is one, a live bar on standard error instead.",
      "",
      "With --json, standard output holds one JSON report (see 'relabel --help'), and the lines"
          + " above that would go to standard output go to standard error.",
      "",
      "Standard error, where setfiles says so with its name: 'relabel: lstat(PATH) failed: REASON',"
          + " 'relabel: PATH is not located in alt_rootpath ROOT', 'relabel: Could not set context"
          + " for PATH:  REASON', 'relabel: Could not read PATH: REASON.', 'relabel: conflicting"
          + " specifications for PATH and PATH, using CONTEXT.', and a bad SPEC_FILE as"
          + " 'relabel: FILE:LINE: message'.",
      "",
      "Exit status:",
      "  0    no error (a directory that cannot be read is reported, but is not an error, as in"
          + " setfiles)",
      "  1    an unusable SPEC_FILE (nothing is relabelled); or, with -C, only entries that could"
          + " not be relabelled",
      "  255  a usage error, a missing PATH (without -i), a missing SPEC_FILE, an entry that"
          + " could not be relabelled (without -C)",
      "  130  stopped by SIGINT, 143 stopped by SIGTERM (128 + the signal's number, as shells"
          + " report it): the walk stops within moments, standard output is flushed, and standard"
          + " error ends with 'relabel: stopped by SIGINT: N entries checked, M relabelled, F failed;"
          + " ...'. Every entry then has its old label or its new one (each label is written by one"
          + " atomic setxattr), and running the command again finishes the job. A second signal"
          + " exits at once with the same status, without that line.",
      "",
      "Not supported (each is refused with a one-line error and status 255): -c (binary policy),"
          + " -E"
          + " (conflicts as errors), -l (syslog),"
          + " -x (restorecon's; setfiles never crosses mount points). -A, -j and -U are from"
          + " later setfiles releases (Debian's 3.4 refuses them). -h prints this help and exits 0"
          + " (setfiles' -h prints its usage and exits 255).",
    })
public final class SetfilesCommand implements Callable<Integer>, QuickVerb {
  @ParentCommand
  private IoHost parent;

  @Override
  public ExitStatus.Scheme exitScheme() {
    return ExitStatus.Scheme.SETFILES;
  }

  private CommandSpec spec;

  /** The verb's model, its options (SetfilesFlags' among its own) in its help's order. */
  @Spec
  void spec(CommandSpec spec) {
    this.spec = HelpOrder.apply(spec, "-F", "-U", "-n", "-v", "-r", "-e", "-i", "-m", "-A", "-j", "-T", "-C", "-q", "-f",
        "-s", "-0", "-d", "-D", "-I", "-p", "--progress", "--json", "-W");
  }

  // Mixins are created here, not by picocli (which uses a mixin field's value when it has one), so
  // that the quick path can build this verb without picocli.
  @Mixin
  private SetfilesFlags flags = new SetfilesFlags();

  @Option(names = "-U", description = "Set user, role and type, not only the type (setfiles 3.5+).")
  private boolean userRoleType;

  @Option(names = "-v", description = "Print each change.")
  private boolean verbose;

  @Option(names = {"-r", "-R"}, paramLabel = "ROOT",
      description = "Label the tree under ROOT as if ROOT were /; every PATH must lie under ROOT.")
  private List<String> alternateRoots = new ArrayList<>();

  @Option(names = "-A", description = "Do not check hard links for conflicting labels (setfiles 3.5+).")
  private boolean noHardLinkCheck;

  @Option(names = "-j", description = "Leave files with more than one hard link alone (setfiles 3.5+).")
  private boolean skipMultiLinked;

  @Mixin
  private ThreadsOption threads = new ThreadsOption();

  @Option(names = "-C", description = "Exit 1, not 255, when the only errors are entries that could not be relabelled.")
  private boolean countErrors;

  @Option(names = "-d", description = "Print the context each entry's spec gives it: PATH matched by CONTEXT.")
  private boolean printMatches;

  // Accepted by setfiles but refused here, each with its reason (see the footer); -l is in SetfilesFlags.
  @Option(names = "-c", paramLabel = "POLICY", hidden = true)
  private String binaryPolicy;

  @Option(names = "-E", hidden = true)
  private boolean conflictErrors;

  @Mixin
  private ProgressOptions progress = new ProgressOptions();

  @Mixin
  private JsonOption json = new JsonOption();

  @Option(names = "-x", hidden = true)
  private boolean oneFilesystem;

  @Parameters(index = "0", paramLabel = "SPEC_FILE", description = "The file_contexts to label with.")
  private String specFile;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "PATH", description = "The trees and files to label.")
  private List<String> paths = new ArrayList<>();

  @Override
  public Integer call() throws IOException, PolicyException {
    return run(parent.io(), new PicocliUsage(spec));
  }

  /**
   * The quick path's letters: setfiles' own here, the rest in the mixins ({@code -c -E -x -p}, and
   * what the mixins leave, are picocli's path's).
   */
  @Override
  public boolean option(char letter, Getopt getopt) {
    return switch (letter) {
      case 'U' -> !userRoleType && (userRoleType = true);
      case 'v' -> !verbose && (verbose = true);
      case 'r', 'R' -> Getopt.add(getopt.argument(), alternateRoots);
      case 'A' -> !noHardLinkCheck && (noHardLinkCheck = true);
      case 'j' -> !skipMultiLinked && (skipMultiLinked = true);
      case 'C' -> !countErrors && (countErrors = true);
      case 'd' -> !printMatches && (printMatches = true);
      default -> flags.option(letter, getopt) || threads.option(letter, getopt);
    };
  }

  /** The quick path's long flag: {@code --json}. */
  @Override
  public boolean longOption(String name) {
    return json.longOption(name);
  }

  /**
   * The quick path's SPEC_FILE and PATHs: at least one PATH, or none with {@code -f}/{@code -s}
   * (otherwise picocli's path says what is missing, or that PATHs cannot be mixed with a list).
   */
  @Override
  public boolean operands(List<String> operands, Map<String, String> environment) {
    if (operands.isEmpty() || (operands.size() == 1) != flags.readsList() || threads.problem(environment) != null) {
      return false;
    }
    specFile = operands.get(0);
    paths = operands.subList(1, operands.size());
    return true;
  }

  @Override
  public void failed(Io io, FailureReport failure) {
    json.failed(io, JsonReport.Kind.RELABEL, "setfiles", failure.messages(), failure.status());
  }

  /** The verb, once its options are read, on either path. */
  @Override
  public int run(Io io, UsageErrors usage) throws IOException, PolicyException {
    refuseUnsupported(usage);
    return new SetfilesPipeline("setfiles", usage, PathLabeller.Mode.SETFILES)
        .output(verbose, flags.dryRun())
        .paths(flags.outFiles(), alternateRoots, flags.excludes())
        .threads(threads, 1)
        .roots(paths, flags.inputFile(), flags.standardInput(), flags.nulSeparated())
        .statistics(flags.warnNoMatch(), countErrors)
        .specFile(specFile)
        .engine(flags.engine()
            .withUserRoleType(userRoleType)
            .withOneFilesystem(true)
            .withHardLinkCheck(!noHardLinkCheck && !flags.standardInput())
            .withSkipMultiLinked(skipMultiLinked)
            .withRecurse(true)
            .withLogMatches(printMatches))
        .run(io, json, progress);
  }

  private void refuseUnsupported(UsageErrors usage) {
    String refused = null;
    if (binaryPolicy != null) {
      refused = "-c (check contexts against a binary policy) is not supported";
    } else if (conflictErrors) {
      refused = "-E (hard link conflicts as errors) is not supported";
    } else if (flags.syslog()) {
      refused = "-l (log changes to syslog) is not supported";
    } else if (progress.setfilesFlag() && verbose) {
      refused = "-p and -v are mutually exclusive (progress and verbose), as in setfiles";
    } else if (oneFilesystem) {
      refused = "-x is restorecon's option: setfiles never crosses mount points";
    }
    if (refused != null) {
      throw usage.error(refused);
    }
  }
}
