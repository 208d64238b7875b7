package dev.relabel.cli;

import dev.relabel.cli.autorelabel.AutorelabelVerb;
import dev.relabel.cli.chcon.ChconCommand;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.LongOptionPrefixes;
import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.VersionProvider;
import dev.relabel.cli.fixfiles.CheckVerb;
import dev.relabel.cli.fixfiles.OnbootVerb;
import dev.relabel.cli.fixfiles.RelabelVerb;
import dev.relabel.cli.fixfiles.RestoreVerb;
import dev.relabel.cli.lookup.CompileCommand;
import dev.relabel.cli.lookup.DemoCommand;
import dev.relabel.cli.lookup.LookupCommand;
import dev.relabel.cli.lookup.PlanCommand;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.setfiles.RestoreconCommand;
import dev.relabel.cli.setfiles.SetfilesCommand;
import dev.relabel.cli.tar.TarCommand;
import dev.relabel.policy.PathBytes;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code relabel}: the top-level command. It does nothing itself; each verb is a class beside this
 * one, registered in {@link WithEveryVerb}'s {@code subcommands}, that reaches the process's
 * streams through {@code @ParentCommand RelabelCommand parent; parent.io()} and reports failure by
 * throwing (see {@link #onExecutionException}).
 *
 * <p>Exit status, for every verb: 0 for success, 1 for failure, usage errors included (as
 * fixfiles' {@code usage} exits 1), except that {@code setfiles} and {@code restorecon} (the verbs
 * declaring {@link ExitStatus.Scheme#SETFILES}) exit as setfiles.c does: 255 for their usage errors and other
 * failures, 1 for an unusable policy; and the fixfiles verbs exit 255 when an entry could not be
 * labelled, as the restorecon or setfiles fixfiles runs does. Errors are one
 * line on standard error, {@code relabel: ...}, without a stack trace ({@code RELABEL_DEBUG=1} adds one for internal
 * errors).
 */
@Command(
    name = "relabel",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    usageHelpWidth = 100,
    description = {
      "SELinux file labelling with a libselinux-exact file_contexts matcher.",
    },
    footerHeading = "%nReports and progress:%n",
    footer = {
      "--json (every verb): one JSON object on standard output, described by the JSON Schema"
          + " report.schema.json (in relabel.jar at dev/relabel/cli/, in the source tree under"
          + " relabel-cli/src/main/resources/dev/relabel/cli/).",
      "-p, --[no-]progress (verbs that walk trees): a live bar on standard error when it is a"
          + " terminal; -p off a terminal prints setfiles' own progress text.",
      "Man pages: relabel-cli/target/man/man1 after a build; bash completion:"
          + " relabel-cli/target/completion/relabel.",
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:success",
      "1:failure: a usage error, an unusable policy, an I/O error, or what the command's help says",
      "2:plan and tar --check only: no plan or check could be made (see 'relabel plan --help' and 'relabel tar"
          + " --help'; 1 there means changes are planned, or labels differ)",
      "255:setfiles and restorecon: their usage errors and fatal errors, as setfiles(8) and restorecon(8) exit"
          + " (see 'relabel setfiles --help'); the fixfiles verbs: an entry that could not be labelled",
    })
public class RelabelCommand implements Runnable, IoHost {
  /**
   * {@code relabel} with every verb: what help, the man pages and the completion script describe
   * (they are generated from this class). picocli merges the annotations of a class and its
   * superclass, so this adds only the verbs, in the order help lists them.
   */
  @Command(subcommands = {DemoCommand.class, LookupCommand.class, SetfilesCommand.class, RestoreconCommand.class,
      ChconCommand.class, RestoreVerb.class, CheckVerb.class, CheckVerb.Verify.class, RelabelVerb.class, OnbootVerb.class,
      AutorelabelVerb.class, PlanCommand.class, CompileCommand.class, TarCommand.class, HelpCommand.class})
  public static final class WithEveryVerb extends RelabelCommand {
    public WithEveryVerb() {
      super(Io.system());
    }

    WithEveryVerb(Io io) {
      super(io);
    }
  }


  private final Io io;

  @Spec
  private CommandSpec spec;

  /** The command on the process's own streams. */
  public RelabelCommand() {
    this(Io.system());
  }

  /** The command on the given streams (tests use memory streams). */
  public RelabelCommand(Io io) {
    this.io = io;
  }

  /** The streams the verbs read and write. */
  @Override
  public Io io() {
    return io;
  }

  /** {@code relabel} alone is a usage error. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "missing command: one of " + String.join(", ", spec.subcommands().keySet()));
  }

  /**
   * The configured command line: help and messages go to {@code io}'s out and err, usage errors
   * and failures exit {@value ExitStatus#FAILURE} with one line on err.
   */
  public static CommandLine commandLine(Io io) {
    return configure(new CommandLine(new WithEveryVerb(io)), io);
  }

  /**
   * As {@link #commandLine(Io)}, with only the verb {@code args} start with when they start with
   * one: picocli reads every verb's options by reflection, and doing it for the eleven others
   * took 40 ms of every start.
   */
  static CommandLine commandLine(Io io, String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // No verb's options to read: --version alone was 100 ms slower with all of them.
      return configure(new CommandLine(new RelabelCommand(io)), io);
    }
    if (args.length > 0 && !args[0].equals("help")) {
      for (Class<?> verb : WithEveryVerb.class.getAnnotation(Command.class).subcommands()) {
        if (verb.getAnnotation(Command.class).name().equals(args[0])) {
          return configure(new CommandLine(new RelabelCommand(io)).addSubcommand(verb), io);
        }
      }
    }
    return commandLine(io);
  }

  private static CommandLine configure(CommandLine commandLine, Io io) {
    // Arguments are paths: "@file" is a path, not a file of arguments to expand.
    commandLine.setExpandAtFiles(false);
    // As getopt: an option given twice takes its last value (a package script's "-T 1" before the
    // caller's "-T 2"), where picocli would refuse the run.
    commandLine.setOverwrittenOptionsAllowed(true);
    // As getopt: an option's value may begin with '-' ("-e -f" excludes a directory named "-f").
    commandLine.setAllowOptionsAsOptionParameters(true);
    commandLine.registerConverter(java.nio.file.Path.class, RelabelCommand::path);
    commandLine.setOut(io.outWriter());
    commandLine.setErr(io.errWriter());
    commandLine.setParameterExceptionHandler(RelabelCommand::onParameterException);
    commandLine.setExecutionExceptionHandler(RelabelCommand::onExecutionException);
    return commandLine;
  }

  /** The exit scheme of the verb {@code commandLine} runs: the one it declares, else {@link ExitStatus.Scheme#RELABEL}. */
  private static ExitStatus.Scheme scheme(CommandLine commandLine) {
    return commandLine.getCommand() instanceof ExitStatus.Declared declared ? declared.exitScheme()
        : ExitStatus.Scheme.RELABEL;
  }

  /** As {@link Main#main}, which the jar names. */
  public static void main(String[] args) {
    Main.main(args);
  }

  /** A path option's value, whatever bytes it holds (see {@link PathBytes#path}). */
  private static java.nio.file.Path path(String value) {
    return PathBytes.path(value);
  }

  /** Runs {@code args} on picocli's path: the exit status. */
  static int execute(Io io, String[] args) {
    CommandLine commandLine = commandLine(io, args);
    String[] expanded;
    try {
      expanded = LongOptionPrefixes.expand(commandLine, args);
    } catch (ParameterException e) {
      return onParameterException(e, args);
    }
    try {
      return commandLine.execute(expanded);
    } catch (Error e) {
      // picocli hands its handler Exceptions only; an Error (the JVM out of memory) ends here.
      CommandLine verb = commandLine;
      for (ParseResult parsed = commandLine.getParseResult(); parsed != null && parsed.hasSubcommand(); ) {
        parsed = parsed.subcommand();
        verb = parsed.commandSpec().commandLine();
      }
      return onExecutionException(e, verb);
    }
  }

  /**
   * A usage error: {@code relabel: MESSAGE (see 'relabel VERB --help')}, status 1 (255 for
   * {@code setfiles}, whose usage() exits -1).
   */
  static int onParameterException(ParameterException e, String[] args) {
    CommandLine where = e.getCommandLine();
    PrintWriter err = where.getErr();
    err.println("relabel: " + e.getMessage() + " (see '" + where.getCommandSpec().qualifiedName() + " --help')");
    err.flush();
    int status = scheme(where).usageError();
    JsonOption.failed(where, java.util.List.of(e.getMessage()), status);
    return status;
  }

  /**
   * A command failed: every problem of an unusable policy on its own line
   * ({@code relabel: FILE:LINE: message}), otherwise one line; status 1 (for {@code setfiles},
   * 255 but for an unusable policy, as setfiles exits).
   */
  static int onExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
    return onExecutionException(e, commandLine);
  }

  private static int onExecutionException(Throwable e, CommandLine commandLine) {
    FailureReport failed = FailureReport.report(e, commandLine.getErr(), scheme(commandLine));
    JsonOption.failed(commandLine, failed.messages(), failed.status());
    return failed.status();
  }
}
