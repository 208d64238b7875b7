package dev.relabel.cli.fixfiles;

import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.IoHost;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.ProgressOptions;
import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.cli.setfiles.PathLabeller;
import dev.relabel.cli.setfiles.SystemPolicy;
import dev.relabel.cli.setfiles.SignalStop;
import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.PolicyCache;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.walk.RelabelOptions;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What the fixfiles verbs ({@code restore}, {@code check}, {@code verify}, {@code relabel},
 * {@code onboot}) share: fixfiles' options and its {@code restore()}, which picks the entries to
 * label (the paths given, the entries changed since a time, or every labelled filesystem) and runs
 * restorecon or setfiles on them, here the engine through {@link PathLabeller}.
 *
 * <p>Exit status: 0; 255 when an entry could not be labelled or a path is missing (the status of
 * the restorecon or setfiles fixfiles runs); 1 for a usage error or when there is nothing to
 * label (no labelled filesystem).
 */
public abstract class FixfilesVerb implements Callable<Integer> {
  @ParentCommand
  private IoHost parent;

  @Spec
  protected CommandSpec spec;

  @Option(names = "-v", description = "Print each change ('Relabeled PATH from OLD to NEW'), the first"
      + " --list-limit of them, then a summary of the rest by directory and by type; -vv prints every one.")
  protected boolean[] verbosity = new boolean[0];

  @Option(names = "--list-limit", paramLabel = "N", defaultValue = "1000",
      description = "With -v (and check, verify): how many changes to list before summarizing (default ${DEFAULT-VALUE}).")
  protected long listLimit;

  @Option(names = "-F", description = "Force: set the whole context, also over a customizable type.")
  protected boolean force;

  @Mixin
  protected ThreadsOption threads;

  @Option(names = "-B", description = "Only the entries modified since the start of the day the system booted"
      + " (/proc/stat's btime), as fixfiles selects them.")
  protected boolean sinceBoot;

  @Option(names = "-N", paramLabel = "TIME",
      description = "Only the entries modified since the start of TIME's day, as fixfiles selects them (it"
          + " passes find only the date): 'YYYY-MM-DD HH:MM', 'YYYY-MM-DD HH:MM:SS' or 'YYYY-MM-DD' (local time).")
  protected String since;

  @Option(names = "-C", paramLabel = "PREVIOUS_FILE_CONTEXTS",
      description = "Relabel only what a policy update changed: the entries this previous file_contexts"
          + " labels otherwise than the current policy. Subtrees no changed spec can reach are not"
          + " even read (fixfiles -C diffs the two files' text instead).")
  protected Path previous;

  @Option(names = "-M", description = "Relabel each filesystem through a bind mount of it alone (fixfiles' -M), made"
      + " in a new directory under /tmp and taken off after, so that what lies under mount points is"
      + " labelled too (a /dev or /run the root filesystem holds beneath the mounts made at boot). Only"
      + " without PATH, -B, -N and -C; onboot writes it to /.autorelabel.")
  protected boolean bindMounts;

  @Option(names = "--no-genhomedircon",
      description = "Do not run /usr/sbin/genhomedircon first. As fixfiles does, restore, check, verify and"
          + " relabel run it (on the real root, not with -B, -N or -C) to write the policy's entries for"
          + " the users' home directories anew, so that a user added since gets its home's labels; it"
          + " rebuilds the policy (seconds), and keeps relabel's compiled policy in step if it was fresh.")
  protected boolean noGenhomedircon;

  @Option(names = "--root", paramLabel = "ROOT",
      description = "Act on the system installed under ROOT (an image, or a test tree) instead of /: its"
          + " /etc/selinux/fixfiles_exclude_dirs, /tmp and /.autorelabel, the mounts at or below ROOT,"
          + " and labels looked up as if ROOT were / (setfiles -r). Default: /.")
  protected String root = "/";

  @Mixin
  protected ProgressOptions progress;

  @Mixin
  protected JsonOption json;

  protected Io io;
  protected Charset charset;
  /** Progress and --json for this run. */
  private Reporting reporting;
  /** SIGINT and SIGTERM stop the run between entries, with a report. */
  private SignalStop signals;
  protected SetfilesOutput output;
  protected FixfilesHost host;
  private final Genhomedircon genhomedircon = new Genhomedircon(Genhomedircon.PROGRAM);

  @Override
  public final Integer call() throws IOException, PolicyException {
    io = parent.io();
    charset = io.charset();
    if (sinceBoot && since != null) {
      throw usage("-B and -N cannot be used together");
    }
    if (previous != null && (sinceBoot || since != null)) {
      throw usage("-C cannot be used with -B or -N");
    }
    if (previous != null && !takesPreviousPolicy()) {
      throw usage("-C is for restore, check and verify");
    }
    host = FixfilesHost.of(root, charset);
    boolean dryRun = dryRun();
    try (Reporting reporting = Reporting.start(parent.io(), spec.name(), json,
        progress.forFixfiles(setfilesTextByDefault()), verbose(), dryRun);
        SignalStop signals = SignalStop.install(Thread.currentThread())) {
      this.reporting = reporting;
      this.signals = signals;
      prepare(reporting);
      io = reporting.io();
      charset = io.charset();
      output = new SetfilesOutput(io, charset, verbose());
      if (verbosity.length < 2) {
        output.limitListedChanges(listLimit);
      }
      int status;
      try {
        status = run();
        output.summarizeUnlisted(10);
      } finally {
        output.flush();
      }
      if (signals.stopped()) {
        status = signals.report(output, dryRun);
      }
      return reporting.finish(status);
    }
  }

  /** The verb. */
  protected abstract int run() throws IOException, PolicyException;

  /** Whether the verb takes -C PREVIOUS_FILE_CONTEXTS (restore, check and verify do). */
  protected boolean takesPreviousPolicy() {
    return false;
  }

  /**
   * Whether the verb runs genhomedircon before it labels the paths or the whole system, as
   * fixfiles' {@code restore} does (on the real root, not with -B, -N or -C).
   */
  protected boolean runsGenhomedircon() {
    return !noGenhomedircon;
  }

  /**
   * Whether setfiles' -p text is printed off a terminal without -p: fixfiles passes -p to its
   * restorecon and setfiles unless it is given -v (check and verify always pass -v).
   */
  protected boolean setfilesTextByDefault() {
    return !verbose();
  }

  /** Whether the verb changes nothing (check and verify). */
  protected boolean dryRun() {
    return false;
  }

  /** Before the verb runs, with its reporting in place (autorelabel adds its progress lines). */
  protected void prepare(Reporting reporting) {}

  /** Whether a signal has stopped the run. */
  protected boolean stopped() {
    return signals.stopped();
  }

  /** Whether changes are printed (check and verify always print them, as fixfiles passes -v). */
  protected boolean verbose() {
    return verbosity.length > 0;
  }

  protected ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** A line on standard output, in order with the engine's. */
  protected void say(String line) {
    output.info((line + "\n").getBytes(charset));
  }

  /**
   * fixfiles' {@code restore OPTION}: label {@code paths} (each with restorecon -R), or with -B/-N
   * the entries changed since then (fixfiles' {@code newer}), or every labelled filesystem
   * (setfiles over all of them, printing "OPTIONing MOUNTS").
   *
   * @param option "Relabel", "Check" or "Verify"
   */
  protected int restore(String option, boolean dryRun, List<String> paths) throws IOException, PolicyException {
    Instant changedAfter = changedAfter();
    if (bindMounts && (changedAfter != null || previous != null)) {
      throw usage("-M relabels whole filesystems: not with -B, -N or -C");
    }
    if (changedAfter != null) {
      if (!paths.isEmpty()) {
        throw usage("-B and -N select the entries themselves: give no PATH");
      }
      return newer(changedAfter, dryRun);
    }
    if (previous == null && host.isRealRoot() && runsGenhomedircon()) {
      genhomedircon();
      if (stopped()) {
        return 0; // a signal cut genhomedircon short: nothing labelled, the signal's report follows
      }
    }
    // -C PREVIOUS_FILE_CONTEXTS is not fixfiles' diff_filecontext (paths from the specs whose text
    // differs, then restorecon -R -i on them): the labeller compares both policies' labels for
    // each entry and skips the subtrees where none can differ (see labeller()).
    if (!paths.isEmpty()) {
      if (bindMounts) {
        throw usage("-M relabels whole filesystems: give no PATH");
      }
      return restoreconPaths(paths, dryRun);
    }
    return wholeSystem(option, dryRun);
  }

  /**
   * Runs genhomedircon (where there is one), its standard output to standard error where standard
   * output holds relabel's JSON. It writes file_contexts.homedirs anew (the same text, or a user's
   * new entries) and semodule compiles libselinux's .bin files after it; so relabel compiles its
   * own policy again when it was fresh before and is not after, rather than warn at every run
   * that it is stale. Its status is ignored, as fixfiles ignores it.
   */
  private void genhomedircon() throws IOException {
    Path fileContexts;
    try {
      fileContexts = PolicyLoader.systemFileContexts(Path.of("/"));
    } catch (PolicyException e) {
      fileContexts = null; // no system policy: the labeller says so
    }
    boolean wasFresh = fileContexts != null && PolicyCache.problem(fileContexts).isEmpty();
    output.flush();
    genhomedircon.runIfPresent(reporting.json() != null ? io.err() : io.out(), io.err())
        .ifPresent(why -> output.error(SetfilesOutput.PREFIX + "warning: " + why + "\n"));
    if (wasFresh && !stopped() && PolicyCache.problem(fileContexts).isPresent()) {
      try {
        PolicyCache.compile(fileContexts, LabelMatcher::compiledSection);
      } catch (PolicyException e) {
        // genhomedircon left a policy that cannot be compiled: the labeller reads it and says why
      } catch (IOException e) {
        output.error(SetfilesOutput.PREFIX + "warning: the compiled policy could not be written again ("
            + e.getMessage() + "): the text is read instead\n");
      }
    }
  }

  /**
   * -B or -N as the instant after which an entry's mtime selects it; null without them. As
   * fixfiles selects: -B from the start of the day the system booted (fixfiles keeps only the date
   * of {@code who -b}), -N from the start of TIME's date (fixfiles passes its TIME unquoted, so
   * find -newermt gets the date and the time is lost as a stray argument). The time is still
   * checked. Selecting from the day's start labels more entries than the time would, never fewer.
   */
  protected Instant changedAfter() throws IOException {
    ZoneId zone = ZoneId.systemDefault();
    if (sinceBoot) {
      return LocalDate.ofInstant(FixfilesHost.bootTime(), zone).atStartOfDay(zone).toInstant();
    }
    if (since == null) {
      return null;
    }
    try {
      String text = since.strip();
      if (text.length() == "YYYY-MM-DD".length()) {
        return LocalDate.parse(text).atStartOfDay(zone).toInstant();
      }
      return LocalDateTime.parse(text.replace(' ', 'T')).toLocalDate().atStartOfDay(zone).toInstant();
    } catch (DateTimeParseException e) {
      throw usage("invalid time for -N: '" + since + "' (expected 'YYYY-MM-DD HH:MM')");
    }
  }

  private RelabelOptions options(boolean dryRun) {
    RelabelOptions options = RelabelOptions.defaults()
        .withThreads(threads.count(0))
        .withForce(force)
        .withDryRun(dryRun);
    reporting.threads(options.workerCount());
    return host.isRealRoot() ? options : options.withAlternateRoot(PathBytes.path(host.root()));
  }

  private String alternateRoot() {
    return host.isRealRoot() ? null : host.root();
  }

  /** fixfiles' FILEPATH mode: restorecon -R on each path, skipping fixfiles_exclude_dirs. */
  private int restoreconPaths(List<String> paths, boolean dryRun) throws IOException, PolicyException {
    List<String> excluded = host.excludedDirectories();
    RelabelOptions options = options(dryRun)
        .withExcludes(excluded.stream().map(PathBytes::path).toList())
        .withHardLinkCheck(false)
        .withRecurse(true);
    PathLabeller labeller = labeller(options,
        PathLabeller.Mode.RESTORECON, alternateRoot(), excluded, false);
    for (String path : paths) {
      logExcluded(excluded);
      labelAsOneRun(labeller, List.of(path), path.equals("/")); // fixfiles runs restorecon once per path
    }
    return status();
  }

  /**
   * fixfiles' {@code newer}: for each read-write labelled filesystem, {@code find -mount -newermt}
   * piped to {@code restorecon -i -f -}. Here the walk itself keeps only the entries modified
   * strictly after the time (mtime, as find compares it) and goes through the others.
   */
  private int newer(Instant changedAfter, boolean dryRun) throws IOException, PolicyException {
    LabelledMounts mounts = host.mounts();
    logReadOnly(mounts);
    RelabelOptions options = options(dryRun)
        .withChangedAfter(changedAfter)
        .withOneFilesystem(true)
        .withIgnoreMissing(true)
        .withHardLinkCheck(false)
        .withRecurse(true);
    PathLabeller labeller = labeller(options,
        PathLabeller.Mode.RESTORECON, alternateRoot(), List.of(), false);
    for (String mount : mounts.readWrite()) {
      // One find | restorecon -f - per filesystem: never a mass relabel (a list's "/" is not).
      labelAsOneRun(labeller, List.of(mount), false);
    }
    return status();
  }

  /** fixfiles' default: setfiles over every read-write labelled filesystem, skipping fixfiles_exclude_dirs. */
  private int wholeSystem(String option, boolean dryRun) throws IOException, PolicyException {
    List<String> excluded = host.excludedDirectories();
    logExcluded(excluded);
    LabelledMounts mounts = host.mounts();
    int status;
    if (mounts.readWrite().isEmpty()) {
      output.error(SetfilesOutput.PREFIX + "No suitable file systems found\n");
      status = ExitStatus.FAILURE;
    } else {
      logReadOnly(mounts);
      say(option + "ing " + String.join(" ", mounts.readWrite()));
      if (bindMounts) {
        for (String mount : mounts.readWrite()) {
          if (stopped()) {
            break;
          }
          throughBindMount(mount, excluded, dryRun);
        }
      } else {
        PathLabeller labeller = labeller(wholeFilesystems(dryRun, excluded),
            PathLabeller.Mode.SETFILES, alternateRoot(), excluded, false);
        // One setfiles over all of them, a mass relabel when / is one.
        labelAsOneRun(labeller, mounts.readWrite(), mounts.readWrite().contains("/"));
      }
      status = status();
    }
    // fixfiles' restore (the restore and relabel verbs: "Relabel") then cleans up /tmp's labels,
    // whatever setfiles did; check and verify do not, nor does -C (its own path returns before).
    if (option.equals("Relabel") && previous == null && cleansUpTmpLabels() && !stopped()) {
      say("Cleaning up labels on /tmp");
      output.flush();
      tmpCleanup().afterRelabel();
    }
    return status;
  }

  /** setfiles' options over whole filesystems: each on its own, {@code excluded} skipped. */
  private RelabelOptions wholeFilesystems(boolean dryRun, List<String> excluded) {
    return options(dryRun)
        .withExcludes(excluded.stream().map(PathBytes::path).toList())
        .withOneFilesystem(true)
        .withRecurse(true);
  }

  /**
   * fixfiles -M for the filesystem mounted at {@code mount}: bound, without the mounts below it, at
   * its own path in a new directory of /tmp, and labelled there by a setfiles run of its own whose
   * root (-r) is that directory, so that entries the mounts cover are labelled too, by their own
   * path's spec. The mount is taken off and the directories made for it removed (each only when
   * empty) before the next filesystem, and when the run is stopped; one left by a run that was
   * killed is never gone into by the clean-up of /tmp ({@link TmpCleanup}). fixfiles_exclude_dirs
   * are skipped at their place there (fixfiles passes setfiles their paths as they are, which name
   * nothing below its directory, so it labels them after saying it skips them). A filesystem that
   * cannot be bound is reported and not labelled (fixfiles stops there, exit 1); the others are.
   */
  private void throughBindMount(String mount, List<String> excluded, boolean dryRun)
      throws IOException, PolicyException {
    String system = host.system(mount);
    Path top;
    Path target;
    try {
      top = Files.createTempDirectory(host.file("/tmp"), "tmp."); // mode 0700: no other user works in it
      target = system.equals("/") ? top : Files.createDirectories(top.resolve(system.substring(1)));
    } catch (IOException e) {
      output.fatal(SetfilesOutput.PREFIX + "cannot make a directory to bind " + mount + " in: "
          + FailureReport.reason(e) + "\n");
      return;
    }
    String topText = PathBytes.text(top);
    Kernel kernel = Kernel.linux();
    try {
      kernel.bindMount(PathBytes.of(PathBytes.path(mount)), PathBytes.of(target));
    } catch (NativeIoException e) {
      output.fatal(SetfilesOutput.PREFIX + "cannot bind-mount " + mount + " at " + PathBytes.text(target) + ": "
          + e.reason() + "\n");
      removeUpTo(target, top);
      return;
    }
    try {
      List<String> bound = excluded.stream().map(directory -> topText + host.system(directory)).toList();
      PathLabeller labeller = labeller(wholeFilesystems(dryRun, bound).withAlternateRoot(top),
          PathLabeller.Mode.SETFILES, topText, bound, false);
      // fixfiles gives setfiles "${TMP_MOUNT}${m}": the root filesystem as "TMP/".
      asOneRun(false, () -> labeller.label(topText + system, mount));
    } finally {
      try {
        kernel.detachMount(PathBytes.of(target));
        removeUpTo(target, top);
      } catch (NativeIoException e) {
        output.fatal(SetfilesOutput.PREFIX + "cannot take the bind mount at " + PathBytes.text(target) + " off: "
            + e.reason() + "\n");
      }
    }
  }

  /** Removes {@code directory} and its parents up to {@code top}, each only when empty. */
  private void removeUpTo(Path directory, Path top) {
    for (Path at = directory; at != null && at.startsWith(top); at = at.getParent()) {
      try {
        Files.delete(at);
      } catch (IOException e) {
        output.error(SetfilesOutput.PREFIX + "warning: cannot remove " + PathBytes.text(at) + ": "
            + FailureReport.reason(e) + "\n");
        return;
      }
    }
  }

  /** The clean-up of /tmp that fixfiles' relabel and whole-system restore make, its problems reported. */
  protected TmpCleanup tmpCleanup() {
    return new TmpCleanup(host, problem -> output.error(SetfilesOutput.PREFIX + problem + "\n"));
  }

  /**
   * Whether a whole-system restore (the restore and relabel verbs) cleans up /tmp's labels after
   * it, as fixfiles' restore does.
   */
  protected boolean cleansUpTmpLabels() {
    return true;
  }

  /**
   * Labels {@code roots} where fixfiles would run one restorecon or setfiles process on them: its
   * progress text ends after them, and the lines printed before come before it.
   * {@code massRelabel}: whether that process makes a mass relabel (is given {@code /}).
   */
  private void labelAsOneRun(PathLabeller labeller, List<String> roots, boolean massRelabel) {
    asOneRun(massRelabel, () -> roots.forEach(labeller::label));
  }

  /** {@code labelling}, which labels as one restorecon or setfiles process would (see {@link #labelAsOneRun}). */
  private void asOneRun(boolean massRelabel, Runnable labelling) {
    output.flush();
    if (massRelabel) {
      reporting.massRelabel();
    }
    labelling.run();
    output.flush();
    reporting.endSetfilesRun();
  }

  /**
   * The labeller: the policy of the system under the root (the host's when the root holds no
   * policy of its own: no file_contexts where its /etc/selinux/config points), and with -C only
   * what the previous policy labels otherwise.
   */
  private PathLabeller labeller(RelabelOptions options, PathLabeller.Mode mode, String alternateRoot,
      List<String> excluded, boolean trackUsedSpecs) throws IOException, PolicyException {
    Path policyRoot = Path.of("/");
    if (!host.isRealRoot()) {
      Path root = PathBytes.path(host.root());
      try {
        if (Files.exists(PolicyLoader.systemFileContexts(root))) {
          policyRoot = root;
        }
      } catch (PolicyException e) {
        // No policy of its own under the root: the host's.
      }
    }
    PathLabeller labeller = SystemPolicy.labeller(output, charset, options, mode, alternateRoot, excluded,
        trackUsedSpecs, policyRoot, previous, reporting).stoppingWhen(signals);
    signals.counting(labeller);
    return labeller;
  }

  private void logExcluded(List<String> excluded) {
    for (String directory : excluded) {
      say("skipping the directory " + directory);
    }
  }

  private void logReadOnly(LabelledMounts mounts) {
    if (!mounts.readOnly().isEmpty()) {
      say("Warning: Skipping the following R/O filesystems:");
      say(String.join("\n", mounts.readOnly()));
    }
  }

  /** 255 when restorecon or setfiles would have failed, else 0. */
  protected int status() {
    output.flush();
    return output.hasFatal() || output.hasEntryErrors() ? ExitStatus.SETFILES_FATAL : ExitStatus.OK;
  }
}
