package dev.relabel.cli.setfiles;

import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.ProgressOptions;
import dev.relabel.policy.PolicyException;
import dev.relabel.walk.DirectoryDigests;
import dev.relabel.walk.RelabelOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relabel restorecon}: Debian's {@code restorecon} (policycoreutils 3.4, which is setfiles
 * under another name) on the parallel engine, with the system's policy, its options (its getopt
 * string, {@code e:f:hiIDlmno:pqrsvFRW0xT:}), its messages and its exit statuses.
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
public final class RestoreconCommand implements Callable<Integer>, ExitStatus.Declared {
  @ParentCommand
  private IoHost parent;

  @Override
  public ExitStatus.Scheme exitScheme() {
    return ExitStatus.Scheme.SETFILES;
  }

  @Spec
  private CommandSpec spec;

  @Option(names = {"-R", "-r"}, description = "Recurse: label each PATH and everything below it.")
  private boolean recurse;

  @Option(names = "-F", description = "Force: set the whole context (user, role, type, range), also over a customizable type.")
  private boolean force;

  @Option(names = "-n", description = "Change nothing; with -v, print what would change.")
  private boolean dryRun;

  @Option(names = "-v", description = "Print each change (may be repeated; once is enough).")
  private boolean[] verbose = new boolean[0];

  @Option(names = "-e", paramLabel = "DIR",
      description = "Skip the directory DIR (a full path) and everything below it; may be repeated."
          + " A DIR that does not exist is ignored with a warning, as restorecon does.")
  private List<String> excludes = new ArrayList<>();

  @Option(names = "-i", description = "A PATH that does not exist is not an error.")
  private boolean ignoreMissing;

  @Option(names = "-x", description = "Do not cross into other filesystems below a PATH.")
  private boolean oneFilesystem;

  @Option(names = "-m", description = "Do not skip the mounts without seclabel (only skipped when SELinux is enabled).")
  private boolean noSeclabelCheck;

  @Mixin
  private ThreadsOption threads;

  @Option(names = "-f", paramLabel = "FILE",
      description = "Read the paths from FILE ('-' for standard input), one per line, instead of PATH arguments.")
  private String inputFile;

  @Option(names = "-s", description = "Read the paths from standard input (as -f -).")
  private boolean standardInput;

  @Option(names = "-0", description = "With -f or -s, the paths are separated by NUL bytes, not newlines.")
  private boolean nulSeparated;

  @Option(names = "-W",
      description = "After the run, warn about every spec that matched no entry, as restorecon's selabel_stats does.")
  private boolean warnNoMatch;

  @Option(names = "-D", description = "With -R, use and store directory digests (security.sehash, as libselinux"
      + " computes them): a directory whose digest equals the policy's is skipped with everything below it"
      + " ('Skipping restorecon on directory(DIR)'); after a PATH labelled without an error, its directories get"
      + " the policy's digests. Not on tmpfs, ramfs or sysfs.")
  private boolean digests;

  @Option(names = "-I", description = "As -D, but check every entry whatever its directory's digest says.")
  private boolean ignoreDigests;

  @Option(names = "-q", description = "No effect (deprecated in restorecon, kept for scripts).")
  private boolean quiet;

  @Option(names = "-o", paramLabel = "FILE", hidden = true,
      description = "No effect but a warning, as in restorecon ('-o option no longer supported').")
  private List<String> outFiles = new ArrayList<>();

  // Accepted by restorecon 3.4 but refused here (see the footer).
  @Option(names = "-l", hidden = true)
  private boolean syslog;

  @Mixin
  private ProgressOptions progress;

  @Mixin
  private JsonOption json;

  @Parameters(arity = "0..*", paramLabel = "PATH", description = "The files and trees to label.")
  private List<String> paths = new ArrayList<>();

  @Override
  public Integer call() throws IOException, PolicyException {
    if (syslog) {
      throw new ParameterException(spec.commandLine(), "-l (log changes to syslog) is not supported");
    }
    if (progress.setfilesFlag() && verbose.length > 0) {
      throw new ParameterException(spec.commandLine(),
          "-p and -v are mutually exclusive (progress and verbose), as in restorecon");
    }
    if (spec.commandLine().getParseResult().matchedOptions().isEmpty() && paths.isEmpty()) {
      // restorecon's usage() for argc < 2; with an option but no PATH it does nothing, successfully.
      throw new ParameterException(spec.commandLine(), "Missing required parameter: 'PATH'");
    }
    return new SetfilesPipeline("restorecon", spec, PathLabeller.Mode.RESTORECON)
        .output(verbose.length > 0, dryRun)
        .paths(outFiles, List.of(), excludes)
        .threads(() -> threads.count(1))
        .roots(paths, inputFile, standardInput, nulSeparated)
        .statistics(warnNoMatch, false)
        .engine(RelabelOptions.defaults()
            .withForce(force)
            .withDryRun(dryRun)
            .withOneFilesystem(oneFilesystem)
            .withIgnoreMissing(ignoreMissing)
            .withCheckSeclabel(!noSeclabelCheck)
            .withHardLinkCheck(false)
            .withRecurse(recurse)
            .withReportUnusedSpecs(warnNoMatch)
            .withDigests(ignoreDigests ? DirectoryDigests.REFRESH
                : digests ? DirectoryDigests.SKIP_UNCHANGED : DirectoryDigests.OFF))
        .run(parent.io(), json, progress);
  }
}
