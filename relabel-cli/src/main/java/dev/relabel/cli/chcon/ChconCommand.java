package dev.relabel.cli.chcon;

import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.IoHost;
import dev.relabel.context.ContextEdit;
import dev.relabel.walk.ChconOptions;
import dev.relabel.walk.ContextChanger;
import dev.relabel.report.RelabelListener;
import dev.relabel.report.RelabelReport;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * {@code relabel chcon}: coreutils' {@code chcon} (9.1) on the parallel engine, for container
 * volumes and admins: one context, or field edits, for whole trees, written only where the label
 * differs. Its options, messages (as {@link ChconOutput} words them) and exit statuses, plus
 * {@code -T}, {@code --json} and {@code --summary}.
 */
@Command(
    name = "chcon",
    versionProvider = VersionProvider.class,
    resourceBundle = ThreadsOption.BUNDLE,
    sortOptions = false,
    usageHelpWidth = 100,
    customSynopsis = {
      "relabel chcon [-RhvP] [-T N] [--json] [--summary] CONTEXT FILE...",
      "       relabel chcon [-RhvP] [-T N] [-u USER] [-r ROLE] [-t TYPE] [-l RANGE] FILE...",
      "       relabel chcon [-RhvP] [-T N] --reference=RFILE FILE...",
    },
    description = {
      "Change the SELinux security context of each FILE to CONTEXT, or to RFILE's with --reference,"
          + " or change only the fields given with -u, -r, -t and -l, as coreutils' chcon(1) does:"
          + " the same labels, the same -v lines and messages, the same exit statuses. With -R"
          + " everything below each directory is changed too, by -T threads; symbolic links met are"
          + " labelled themselves, never followed (chcon's -P), and every entry is reached through"
          + " its directory's descriptor, so nothing outside the tree is touched even if the tree"
          + " changes meanwhile. Only labels that differ are written (chcon writes a whole CONTEXT"
          + " over every entry): a repeated run writes nothing and changes no ctime.",
    },
    footerHeading = "%nOutput and exit status:%n",
    footer = {
      "-v: 'changing security context of FILE' on standard output for every entry handled, with"
          + " FILE quoted as chcon quotes it, at -T 1 in chcon's order (a directory after what lies"
          + " beneath it); with -T above 1 the lines come from several threads, so their order"
          + " varies. Errors on standard error, chcon's words after 'relabel: ', e.g."
          + " 'failed to change context of NAME to CONTEXT: REASON', 'can't apply partial context to"
          + " unlabeled file NAME', 'cannot access FILE: REASON'. Exit status 0 when every entry was"
          + " handled, 1 on any failure (the walk goes on) and for usage errors.",
      "",
      "Not supported: -H and -L (following symlinks to directories under -R would label files"
          + " outside the tree); each is refused with status 1 when it takes effect. CONTEXT is not"
          + " checked against a loaded policy (chcon checks it only when SELinux is enabled).",
    })
public final class ChconCommand implements Callable<Integer> {
  @ParentCommand
  private IoHost parent;

  @Spec
  private CommandSpec spec;

  @Option(names = {"-R", "--recursive"}, description = "Operate on files and directories recursively.")
  private boolean recurse;

  /** The last of --dereference (true) and -h (false) given; null for neither. */
  private Boolean follow;

  @Option(names = "--dereference",
      description = "Affect the referent of each symbolic link given (the default without -R).")
  void dereference(boolean on) {
    follow = Boolean.TRUE;
  }

  @Option(names = {"-h", "--no-dereference"}, description = "Affect symbolic links instead of any referenced file.")
  void noDereference(boolean on) {
    follow = Boolean.FALSE;
  }

  @Option(names = {"-u", "--user"}, paramLabel = "USER", description = "Set user USER in the target security context.")
  private String user;

  @Option(names = {"-r", "--role"}, paramLabel = "ROLE", description = "Set role ROLE in the target security context.")
  private String role;

  @Option(names = {"-t", "--type"}, paramLabel = "TYPE", description = "Set type TYPE in the target security context.")
  private String type;

  @Option(names = {"-l", "--range"}, paramLabel = "RANGE",
      description = "Set range RANGE in the target security context.")
  private String range;

  @Option(names = "--reference", paramLabel = "RFILE",
      description = "Use RFILE's security context rather than a CONTEXT (a symlink RFILE is followed).")
  private String reference;

  /** The last of --preserve-root and --no-preserve-root given wins. */
  private boolean preserveRoot;

  @Option(names = "--preserve-root", description = "Fail to operate recursively on '/'.")
  void preserveRoot(boolean on) {
    preserveRoot = true;
  }

  @Option(names = "--no-preserve-root", description = "Do not treat '/' specially (the default).")
  void noPreserveRoot(boolean on) {
    preserveRoot = false;
  }

  @Option(names = {"-v", "--verbose"}, description = "Output a diagnostic for every file processed.")
  private boolean verbose;

  /** The last of -H, -L, -P given: as in chcon, only the final one takes effect. */
  private char traversal = 'P';

  @Option(names = "-H", description = "Not supported (see below).")
  void traverseCommandLine(boolean on) {
    traversal = 'H';
  }

  @Option(names = "-L", description = "Not supported (see below).")
  void traverseEvery(boolean on) {
    traversal = 'L';
  }

  @Option(names = "-P", description = "Do not traverse any symbolic links (the default).")
  void traverseNone(boolean on) {
    traversal = 'P';
  }

  @Mixin
  private ThreadsOption threads;

  private final KernelContextCheck contextCheck = KernelContextCheck.system();

  @Option(names = "--summary",
      description = "At the end, one line on standard error: entries handled, changed, failed, and the time taken.")
  private boolean summary;

  @Option(names = "--help", usageHelp = true, description = "Show this help message and exit.")
  private boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print version information and exit.")
  private boolean version;

  @Mixin
  private JsonOption json;

  @Parameters(arity = "0..*", paramLabel = "ARG", description = "CONTEXT (unless -u/-r/-t/-l or --reference), then each FILE.")
  private List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    Charset charset = parent.io().charset();
    ChconQuoting quoting = new ChconQuoting(charset);
    boolean fields = user != null || role != null || type != null || range != null;
    if (reference != null && fields) {
      throw new ParameterException(spec.commandLine(), "conflicting security context specifiers given");
    }
    boolean dereference = checkTraversal();
    int needed = reference != null || fields ? 1 : 2;
    if (args.size() < needed) {
      throw new ParameterException(spec.commandLine(), args.isEmpty() ? "missing operand"
          : "missing operand after " + new String(quoting.value(bytes(args.get(args.size() - 1), charset)), charset));
    }
    int threadCount = threads.count(1);
    try (Reporting reporting = Reporting.start(parent.io(), "chcon", json, null, verbose, false)) {
      ChconOutput output = new ChconOutput(reporting.io(), quoting);
      ContextEdit edit;
      List<String> files = args;
      if (reference != null) {
        byte[] rfile = bytes(reference, charset);
        try {
          edit = ContextEdit.whole(ContextChanger.referenceContext(rfile));
        } catch (ContextChanger.ReferenceException e) {
          return refuse(reporting, output, output.join("failed to get security context of ",
              quoting.file(rfile), ": " + SetfilesOutput.strerror(e.errno())));
        }
      } else if (fields) {
        edit = ContextEdit.fields().user(latin1(user, charset)).role(latin1(role, charset))
            .type(latin1(type, charset)).range(latin1(range, charset)).build();
      } else {
        byte[] context = bytes(args.get(0), charset);
        Optional<String> refused = contextCheck.refusal(context);
        if (refused.isPresent()) {
          return refuse(reporting, output, output.join("invalid context: ", quoting.value(context),
              ": " + refused.get()));
        }
        edit = ContextEdit.whole(latin1(args.get(0), charset));
        files = args.subList(1, args.size());
      }
      ChconOptions options = ChconOptions.builder(edit).recurse(recurse).dereference(dereference)
          .preserveRoot(preserveRoot).threads(threadCount).announceEach(verbose).build();
      reporting.threads(options.workerCount());
      List<byte[]> raw = new ArrayList<>(files.size());
      for (String file : files) {
        raw.add(bytes(file, charset));
      }
      RelabelReport report;
      try (ContextChanger changer = ContextChanger.onDisk(options,
          output.listener(reporting.listener(RelabelListener.NONE)))) {
        report = changer.runRaw(raw);
      } finally {
        output.flush();
      }
      reporting.completed(report);
      if (summary) {
        output.summary(report);
      }
      output.flush();
      return reporting.finish(report.succeeded() ? ExitStatus.OK : ExitStatus.FAILURE);
    }
  }

  /** A refusal before any file is touched, as chcon's: its one message (written at once), status 1. */
  private static int refuse(Reporting reporting, ChconOutput output, byte[] message) {
    output.error(message);
    return reporting.finish(ExitStatus.FAILURE);
  }

  /**
   * chcon's checks of -R against -h, --dereference and -H/-L/-P; whether a symlink given is
   * followed.
   */
  private boolean checkTraversal() {
    if (!recurse) {
      // Without -R chcon ignores -H, -L and -P.
      return !Boolean.FALSE.equals(follow);
    }
    if (traversal == 'P') {
      if (Boolean.TRUE.equals(follow)) {
        throw new ParameterException(spec.commandLine(), "-R --dereference requires either -H or -L");
      }
      return false;
    }
    if (Boolean.FALSE.equals(follow)) {
      throw new ParameterException(spec.commandLine(), "-R -h requires -P");
    }
    throw new ParameterException(spec.commandLine(), "-" + traversal
        + " is not supported: following symbolic links to directories under -R would label files outside"
        + " the tree (-P, the default, labels each symlink itself)");
  }

  /** An argument back as the bytes the process received. */
  private static byte[] bytes(String arg, Charset charset) {
    return arg.getBytes(charset);
  }

  /** An argument as the engine holds labels: one char per byte. */
  private static String latin1(String arg, Charset charset) {
    return arg == null ? null : new String(arg.getBytes(charset), StandardCharsets.ISO_8859_1);
  }
}
