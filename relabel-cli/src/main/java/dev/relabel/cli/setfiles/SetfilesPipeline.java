package dev.relabel.cli.setfiles;

import dev.relabel.cli.common.ExitStatus;
import dev.relabel.cli.common.FailureReport;
import dev.relabel.cli.common.Io;
import dev.relabel.cli.common.RecordReader;
import dev.relabel.cli.common.ThreadsOption;
import dev.relabel.cli.common.UsageErrors;
import dev.relabel.cli.output.JsonOption;
import dev.relabel.cli.output.ProgressOptions;
import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.Errno;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.PolicyException;
import dev.relabel.policy.PolicyLoader;
import dev.relabel.walk.NativeFileTree;
import dev.relabel.walk.RelabelOptions;
import dev.relabel.walk.Relabeler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * setfiles.c's main() after getopt, for both of its names: {@link SetfilesCommand} and
 * {@link RestoreconCommand} read their own options (their getopt strings differ) and hand this
 * what they read; the differences that remain are data here: a spec file or the system's policy,
 * {@link PathLabeller.Mode}, whether a PATH is required and whether -C applies. The checks run in
 * setfiles' order, so that the first problem is the one reported. It needs no picocli: usage
 * errors go to {@link UsageErrors}, so that the quick path runs it too.
 */
public final class SetfilesPipeline {
  private final String name;
  private final UsageErrors usage;
  private final PathLabeller.Mode mode;
  private boolean verbose;
  private boolean dryRun;
  private List<String> outFiles = List.of();
  private List<String> alternateRoots = List.of();
  private List<String> excludes = List.of();
  private ThreadsOption threads;
  private int defaultThreads;
  private String inputFile;
  private boolean standardInput;
  private boolean nulSeparated;
  private List<String> paths = List.of();
  private boolean warnNoMatch;
  private boolean countErrors;
  private String specFile;
  private RelabelOptions engine = RelabelOptions.defaults();

  /** setfiles.c run as {@code name} (its {@code argv[0]}), its usage errors reported to {@code usage}. */
  public SetfilesPipeline(String name, UsageErrors usage, PathLabeller.Mode mode) {
    this.name = name;
    this.usage = usage;
    this.mode = mode;
  }

  /** {@code -v} and {@code -n}. */
  public SetfilesPipeline output(boolean verbose, boolean dryRun) {
    this.verbose = verbose;
    this.dryRun = dryRun;
    return this;
  }

  /** {@code -o FILE}s (each only warned about), {@code -r ROOT}s and {@code -e DIR}s, as given. */
  public SetfilesPipeline paths(List<String> outFiles, List<String> alternateRoots, List<String> excludes) {
    this.outFiles = List.copyOf(outFiles);
    this.alternateRoots = List.copyOf(alternateRoots);
    this.excludes = List.copyOf(excludes);
    return this;
  }

  /**
   * {@code -T N}, else RELABEL_THREADS, else {@code whenNotGiven}: read, and checked, after the -r
   * and -e checks, where setfiles checks it.
   */
  public SetfilesPipeline threads(ThreadsOption threads, int whenNotGiven) {
    this.threads = threads;
    this.defaultThreads = whenNotGiven;
    return this;
  }

  /** The PATH arguments, or {@code -f FILE} / {@code -s} (with {@code -0}) to read them from. */
  public SetfilesPipeline roots(List<String> paths, String inputFile, boolean standardInput, boolean nulSeparated) {
    this.paths = List.copyOf(paths);
    this.inputFile = inputFile;
    this.standardInput = standardInput;
    this.nulSeparated = nulSeparated;
    return this;
  }

  /** {@code -W}, and setfiles' {@code -C} (restorecon has no -C: false). */
  public SetfilesPipeline statistics(boolean warnNoMatch, boolean countErrors) {
    this.warnNoMatch = warnNoMatch;
    this.countErrors = countErrors;
    return this;
  }

  /** setfiles' SPEC_FILE (a PATH is then required); without one, the system's policy, as restorecon. */
  public SetfilesPipeline specFile(String specFile) {
    this.specFile = specFile;
    return this;
  }

  /** The engine's options the command's flags ask for; threads, excludes and the root are added here. */
  public SetfilesPipeline engine(RelabelOptions engine) {
    this.engine = engine;
    return this;
  }

  /** The whole run: reporting, signals, the checks, the walk, and setfiles' exit status. */
  public int run(Io parentIo, JsonOption json, ProgressOptions progress) throws IOException, PolicyException {
    // -m: libselinux reads no mount table, and has no estimate for -p's percentages either
    ProgressOptions shown = engine.checkSeclabel() ? progress : progress.withoutMountTable();
    try (Reporting reporting = Reporting.start(parentIo, name, json, shown, verbose, dryRun)) {
      SetfilesOutput output = new SetfilesOutput(reporting.io(), reporting.io().charset(), verbose);
      int status;
      try (SignalStop signals = SignalStop.install(Thread.currentThread())) {
        status = run(reporting, output, signals);
        if (signals.stopped()) {
          status = signals.report(output, dryRun);
        }
      } finally {
        output.flush();
      }
      return reporting.finish(status);
    }
  }

  private int run(Reporting reporting, SetfilesOutput output, SignalStop signals) throws IOException, PolicyException {
    Io io = reporting.io();
    Charset charset = io.charset();
    for (int i = 0; i < outFiles.size(); i++) {
      output.error(SetfilesOutput.PREFIX + "-o option no longer supported\n");
    }
    String alternateRoot = alternateRoot(output, charset);
    if (output.hasFatal()) {
      return ExitStatus.SETFILES_FATAL;
    }
    List<String> excludedDirectories = new ArrayList<>();
    Integer status = SetfilesArgs.checkExcludes(excludes, output, charset, excludedDirectories);
    if (status != null) {
      return status;
    }
    int threadCount = threads.count(defaultThreads, io.environment(), usage);
    boolean readList = inputFile != null || standardInput;
    if (readList && !paths.isEmpty()) {
      throw usage.error("PATH arguments cannot be mixed with -f or -s");
    }
    if (specFile != null && !readList && paths.isEmpty()) {
      throw usage.error("Missing required parameter: 'PATH'");
    }
    List<byte[]> excludedPaths = new ArrayList<>();
    for (String directory : excludedDirectories) {
      excludedPaths.add(directory.getBytes(charset));
    }
    RelabelOptions options = engine.withThreads(threadCount).withExcludedBytes(excludedPaths);
    if (alternateRoot != null) {
      options = options.withAlternateRootBytes(alternateRoot.getBytes(charset));
    }
    reporting.threads(options.workerCount());
    PathLabeller labeller;
    if (specFile != null) {
      Path spec = PathBytes.path(specFile);
      status = checkSpecFile(spec, output, charset);
      if (status != null) {
        return status;
      }
      LabelMatcher matcher = LabelMatcher.compile(PolicyLoader.validating().load(spec));
      if (signals.stopped()) {
        return ExitStatus.SETFILES_FATAL; // replaced by the signal's status; nothing was labelled
      }
      Relabeler relabeler = new Relabeler(matcher, SystemPolicy.customizableTypes(), options, new NativeFileTree(),
          reporting.listener(output));
      labeller = new PathLabeller(charset, output, matcher, relabeler, mode, alternateRoot,
          excludedDirectories, options.ignoreMissing(), warnNoMatch).reportingTo(reporting);
    } else {
      labeller = SystemPolicy.labeller(output, charset, options, mode, alternateRoot, excludedDirectories,
          warnNoMatch, reporting);
    }
    labeller.stoppingWhen(signals);
    signals.counting(labeller);
    Glob glob = new Glob(charset);
    if (readList) {
      String file = standardInput ? "-" : inputFile;
      InputStream list;
      try {
        list = file.equals("-") ? io.in() : Files.newInputStream(PathBytes.path(file));
      } catch (IOException e) {
        output.fatal("Unable to open " + file + ": " + FailureReport.reason(e) + "\n");
        return ExitStatus.SETFILES_FATAL;
      }
      labelList(file, list, glob, labeller, output, signals, charset);
    } else {
      // setfiles' mass relabel: every path is, when one argument is "/". Not with -f: setfiles 3.4
      // notes a line "/" only after restore_init has made its flags.
      if (paths.contains("/")) {
        reporting.massRelabel();
      }
      for (String pattern : paths) {
        if (signals.stopped()) {
          break;
        }
        labeller.labelPattern(glob, pattern);
      }
    }
    if (warnNoMatch && !signals.stopped()) {
      labeller.warnUnusedSpecs();
    }
    output.flush();
    if (output.hasFatal()) {
      return ExitStatus.SETFILES_FATAL;
    }
    if (output.hasEntryErrors()) {
      return countErrors ? ExitStatus.SETFILES_ERRORS : ExitStatus.SETFILES_FATAL;
    }
    return ExitStatus.OK;
  }

  /**
   * -f FILE, -s: each record of the list labelled as it is read, as setfiles' getdelim loop does,
   * so a list from a program that never closes its end is labelled as it comes. A record ends at
   * its first NUL (setfiles reads each as a C string); one longer than any path or glob could be is
   * refused, not held, and the list read on. Standard input is left open; a FILE is closed.
   */
  private void labelList(String file, InputStream list, Glob glob, PathLabeller labeller, SetfilesOutput output,
      SignalStop signals, Charset charset) {
    try (InputStream closing = file.equals("-") ? null : list) {
      RecordReader records = new RecordReader(list, nulSeparated ? (byte) 0 : (byte) '\n', output::flush);
      long number = 0;
      while (!signals.stopped() && records.next()) {
        number++;
        if (records.overlong()) {
          output.fatal(SetfilesOutput.PREFIX + file + ": entry " + number + " of the list is longer than "
              + records.longest() + " bytes: not labelled\n");
          continue;
        }
        byte[] buffer = records.buffer();
        int end = records.start();
        while (end < records.end() && buffer[end] != 0) {
          end++;
        }
        labeller.labelPattern(glob, new String(buffer, records.start(), end - records.start(), charset));
      }
    } catch (IOException e) {
      output.fatal("Unable to read " + file + ": " + FailureReport.reason(e) + "\n");
    }
  }

  /**
   * -r's ROOT, absolute and normalized as text in {@code charset}; null without -r, or when
   * setfiles' checks refuse it (it must exist, be given once, and not be "/"), which is then
   * written as fatal.
   */
  private String alternateRoot(SetfilesOutput output, Charset charset) {
    String alternateRoot = null;
    for (int i = 0; i < alternateRoots.size(); i++) {
      String root = alternateRoots.get(i);
      PathLabeller.Lstat lstat = PathLabeller.lstat(charset, root);
      if (lstat.failedOtherThanAccess()) {
        output.fatal("Can't stat alt_root_path \"" + root + "\", " + lstat.reason() + "\n");
        return null;
      }
      if (i > 0) {
        output.fatal(SetfilesOutput.PREFIX + "only one -r can be specified\n");
        return null;
      }
      if (root.equals("/")) {
        output.fatal(SetfilesOutput.PREFIX + " invalid alt_rootpath: /\n");
        return null;
      }
      alternateRoot = new String(PathBytes.absolute(root.getBytes(charset)), charset);
    }
    return alternateRoot;
  }

  /** setfiles stat()s the spec file ({@code file}, made from {@code specFile}): it must exist and be a regular file. */
  private Integer checkSpecFile(Path file, SetfilesOutput output, Charset charset) {
    if (!Files.exists(file)) {
      // Files.exists says no: lstat's words, or ENOENT's where lstat succeeds (a dangling symlink).
      PathLabeller.Lstat lstat = PathLabeller.lstat(charset, specFile);
      output.fatal(specFile + ": " + (lstat.failure() == null ? Errno.strerror(Errno.ENOENT) : lstat.reason()) + "\n");
      return ExitStatus.SETFILES_FATAL;
    }
    if (!Files.isRegularFile(file)) {
      output.fatal(SetfilesOutput.PREFIX + " spec file " + specFile + " is not a regular file.\n");
      return ExitStatus.SETFILES_FATAL;
    }
    return null;
  }
}
