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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relabel restorecon}: Debian's {@code restorecon} (policycoreutils 3.4, which is setfiles
 * under another name) on the parallel engine, with the system's policy, its options (its getopt
 * string, {@code e:f:hiIDlmno:pqrsvFRW0xT:}), its messages and its exit statuses. The quick path
 * runs it without picocli for the options whose letters {@link #option} (and its mixins') apply.
 */
@Command(
    name = "restorecon",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    separator = " ",
    usageHelpWidth = 100,
    customSynopsis = {
      "relabel restorecon [-iIDFmnqrRvWx] [-e DIR]... [-T N] PATH...",
      "       relabel restorecon [-iIDFmnqrRvWx0] [-e DIR]... [-T N] -f FILE|-s",
    },
    description = {
      "Set the SELinux label of each PATH (and with -R of everything below it) to what the"
          + " system's policy gives it, as restorecon(8) does: the file_contexts of SELINUXTYPE in"
          + " /etc/selinux/config, with its .local, .homedirs, .subs and .subs_dist. Without -F only"
          + " the type of a labelled entry is changed, and an entry whose label has a customizable"
          + " type is left alone; an entry without a label gets the whole context. A PATH is"
          + " expanded as restorecon expands it (glob(3) with ~, {a,b} and wildcards), then its"
          + " directory is resolved with realpath(3) and its last component kept, so a symlink"
          + " given is labelled itself, never followed. Mount points are crossed unless -x.",
      "",
      "Unlike Debian's restorecon, which exits 0 at once, silently, when SELinux is disabled,"
          + " this labels regardless: an admin preparing a system to enable SELinux needs the"
          + " labels in place before the first enforcing boot.",
    },
    footerHeading = "%nOutput:%n",
    footer = {
      "Standard output: with -v, one line per change, 'Relabeled PATH from OLD to NEW', or"
          + " 'Would relabel PATH from OLD to NEW' with -n (OLD is '(null)' for an unlabelled"
          + " entry), and 'PATH not reset as customized by admin to CONTEXT'; always 'Warning no"
          + " default label for PATH' when no spec (or <<none>>) applies to a PATH given itself."
          + " Paths are written as raw bytes, canonical as above. With -T, lines come from several"
          + " threads, so their order may vary from run to run.",
      "",
      "Standard error, where restorecon says so with its name: 'relabel: lstat(PATH) failed: REASON',"
          + " 'relabel: SELinux: Could not get canonical path for PATH restorecon: REASON.',"
          + " 'relabel: Could not set context for PATH:  REASON', 'relabel: Could not read PATH: REASON.',"
          + " and a bad policy as 'relabel: FILE:LINE: message'.",
      "",
      "Exit status:",
      "  0    no error (a directory that cannot be read is reported, but is not an error, as in"
          + " restorecon)",
      "  1    the system's policy cannot be found or read (nothing is relabelled)",
      "  255  a usage error, a missing PATH (without -i), a PATH whose directory cannot be"
          + " resolved, an entry that could not be relabelled",
      "",
      "Not supported (each is refused"
          + " with a one-line error and status 255): -l (syslog). restorecon 3.4"
          + " has no -U, -j, -c, -C, -d, -A or -E; they are unknown options here too. -h prints"
          + " this help and exits 0 (restorecon's -h prints its usage and exits 255). PATH"
          + " arguments given with -f or -s are an error (restorecon ignores them).",
    })
public final class RestoreconCommand implements Callable<Integer>, QuickVerb {
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
    this.spec = HelpOrder.apply(spec, "-R", "-F", "-n", "-v", "-e", "-i", "-x", "-m", "-T", "-f", "-s", "-0", "-W",
        "-D", "-I", "-q", "-p", "--progress", "--json");
  }

  @Option(names = {"-R", "-r"}, description = "Recurse: label each PATH and everything below it.")
  private boolean recurse;

  // Mixins are created here, not by picocli (which uses a mixin field's value when it has one), so
  // that the quick path can build this verb without picocli.
  @Mixin
  private SetfilesFlags flags = new SetfilesFlags();

  @Option(names = "-v", description = "Print each change (may be repeated; once is enough).")
  private boolean[] verbose = new boolean[0];

  @Option(names = "-x", description = "Do not cross into other filesystems below a PATH.")
  private boolean oneFilesystem;

  @Mixin
  private ThreadsOption threads = new ThreadsOption();

  @Mixin
  private ProgressOptions progress = new ProgressOptions();

  @Mixin
  private JsonOption json = new JsonOption();

  @Parameters(arity = "0..*", paramLabel = "PATH", description = "The files and trees to label.")
  private List<String> paths = new ArrayList<>();

  @Override
  public Integer call() throws IOException, PolicyException {
    if (spec.commandLine().getParseResult().matchedOptions().isEmpty() && paths.isEmpty()) {
      // restorecon's usage() for argc < 2; with an option but no PATH it does nothing, successfully.
      throw new PicocliUsage(spec).error("Missing required parameter: 'PATH'");
    }
    return run(parent.io(), new PicocliUsage(spec));
  }

  /**
   * The quick path's letters: {@code -R -r -v -x} here, the rest in the mixins ({@code -p}, and
   * what they leave, are picocli's path's).
   */
  @Override
  public boolean option(char letter, Getopt getopt) {
    return switch (letter) {
      case 'R', 'r' -> !recurse && (recurse = true);
      case 'v' -> {
        verbose = Arrays.copyOf(verbose, verbose.length + 1);
        verbose[verbose.length - 1] = true;
        yield true;
      }
      case 'x' -> !oneFilesystem && (oneFilesystem = true);
      default -> flags.option(letter, getopt) || threads.option(letter, getopt);
    };
  }

  /** The quick path's long flag: {@code --json}. */
  @Override
  public boolean longOption(String name) {
    return json.longOption(name);
  }

  /**
   * The quick path's PATHs: at least one, or none with {@code -f}/{@code -s} (otherwise picocli's
   * path says what is missing, or that PATHs cannot be mixed with a list).
   */
  @Override
  public boolean operands(List<String> operands, Map<String, String> environment) {
    paths = operands;
    return operands.isEmpty() == flags.readsList() && threads.problem(environment) == null;
  }

  @Override
  public void failed(Io io, FailureReport failure) {
    json.failed(io, JsonReport.Kind.RELABEL, "restorecon", failure.messages(), failure.status());
  }

  /** The verb, once its options are read, on either path. */
  @Override
  public int run(Io io, UsageErrors usage) throws IOException, PolicyException {
    if (flags.syslog()) {
      throw usage.error("-l (log changes to syslog) is not supported");
    }
    if (progress.setfilesFlag() && verbose.length > 0) {
      throw usage.error("-p and -v are mutually exclusive (progress and verbose), as in restorecon");
    }
    return new SetfilesPipeline("restorecon", usage, PathLabeller.Mode.RESTORECON)
        .output(verbose.length > 0, flags.dryRun())
        .paths(flags.outFiles(), List.of(), flags.excludes())
        .threads(threads, 1)
        .roots(paths, flags.inputFile(), flags.standardInput(), flags.nulSeparated())
        .statistics(flags.warnNoMatch(), false)
        .engine(flags.engine()
            .withOneFilesystem(oneFilesystem)
            .withHardLinkCheck(false)
            .withRecurse(recurse))
        .run(io, json, progress);
  }
}
