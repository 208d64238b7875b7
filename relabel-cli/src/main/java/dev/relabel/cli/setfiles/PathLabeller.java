package dev.relabel.cli.setfiles;

import dev.relabel.cli.output.Reporting;
import dev.relabel.cli.output.SetfilesOutput;
import dev.relabel.match.Label;
import dev.relabel.match.LabelMatcher;
import dev.relabel.nativeio.FileStat;
import dev.relabel.nativeio.Kernel;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.policy.FileType;
import dev.relabel.policy.PathBytes;
import dev.relabel.policy.Spec;
import dev.relabel.report.RelabelReport;
import dev.relabel.walk.Exclusions;
import dev.relabel.walk.Relabeler;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * What setfiles and restorecon do with each PATH they are given, before and around the walk
 * (policycoreutils' {@code process_glob} and the start of libselinux's
 * {@code selinux_restorecon}): the glob expansion, restorecon's canonical path, the lstat and its
 * error, the alternate root and exclusion checks, the root's "no default label" warning, then the
 * engine's walk. Shared by {@code relabel setfiles}, {@code relabel restorecon} and the fixfiles
 * verbs, which differ only in the {@link Mode}.
 */
public final class PathLabeller {
  /** How a front end treats its PATH arguments, as setfiles.c's {@code iamrestorecon} decides. */
  public enum Mode {
    /** setfiles: the path as given (a trailing slash kept in messages). */
    SETFILES,
    /**
     * restorecon ({@code SELINUX_RESTORECON_REALPATH}): the path's directory resolved with
     * realpath(3), its last component kept, so a symlink given is labelled itself.
     */
    RESTORECON
  }

  private final Charset charset;
  private final SetfilesOutput output;
  private final LabelMatcher matcher;
  private final Relabeler relabeler;
  private final Mode mode;
  /** The alternate root, absolute, normalized; null without one. */
  private final String alternateRoot;
  /** The -e directories, tested as the engine tests a root (see {@link Exclusions#coversRoot}). */
  private final Exclusions excludedDirectories;
  private final boolean ignoreMissing;
  private final boolean trackUsedSpecs;
  /** With -W: the specs that decided some entry, over every path (identity). */
  private final Set<Spec> usedSpecs = Collections.newSetFromMap(new IdentityHashMap<>());
  /** Whether to stop before the next path (a signal came); null: never. */
  private java.util.function.BooleanSupplier stopRequested;
  /** What every run so far did, for a report when a signal stops the verb. */
  private long visited;
  private long relabeled;
  private long failed;
  /** The verb's progress and --json report, told of each root; null when the verb has none. */
  private Reporting reporting;

  PathLabeller(Charset charset, SetfilesOutput output, LabelMatcher matcher, Relabeler relabeler, Mode mode,
      String alternateRoot, List<String> excludedDirectories, boolean ignoreMissing, boolean trackUsedSpecs) {
    this.charset = charset;
    this.output = output;
    this.matcher = matcher;
    this.relabeler = relabeler;
    this.mode = mode;
    this.alternateRoot = alternateRoot;
    List<byte[]> excluded = new ArrayList<>(excludedDirectories.size());
    for (String directory : excludedDirectories) {
      excluded.add(directory.getBytes(charset));
    }
    this.excludedDirectories = Exclusions.ofBytes(excluded);
    this.ignoreMissing = ignoreMissing;
    this.trackUsedSpecs = trackUsedSpecs;
  }

  /** Tells {@code reporting} (progress, --json) of each root walked and its report. */
  PathLabeller reportingTo(Reporting reporting) {
    this.reporting = reporting;
    return this;
  }

  /** Stops labelling, before the next path, once {@code stopRequested} says so. */
  public PathLabeller stoppingWhen(java.util.function.BooleanSupplier stopRequested) {
    this.stopRequested = stopRequested;
    return this;
  }

  long visited() {
    return visited;
  }

  long relabeled() {
    return relabeled;
  }

  long failed() {
    return failed;
  }

  /** One PATH argument or list entry: its glob expansion, each labelled in turn. */
  void labelPattern(Glob glob, String pattern) {
    for (String path : glob.expand(pattern)) {
      if (stopRequested != null && stopRequested.getAsBoolean()) {
        return;
      }
      int length = path.getBytes(charset).length;
      if ((length > 2 && path.endsWith("/.")) || (length > 3 && path.endsWith("/.."))) {
        continue; // process_glob skips these expansions of a '*'
      }
      label(path);
    }
  }

  /** selinux_restorecon() of one path: checks, the root's lookup warning, then the walk. */
  public void label(String given) {
    label(given, null);
  }

  /**
   * As {@link #label(String)}, the per-filesystem progress lines calling it {@code reportedAs}
   * (fixfiles -M: the filesystem, not the bind mount it is labelled through); null: its path.
   */
  public void label(String given, String reportedAs) {
    if (stopRequested != null && stopRequested.getAsBoolean()) {
      return;
    }
    String named = given;
    if (mode == Mode.RESTORECON) {
      named = canonical(given);
      if (named == null) {
        return;
      }
    }
    Lstat lstat = lstat(charset, named);
    if (lstat.stat() == null) {
      if (!(ignoreMissing && lstat.missing())) {
        output.fatal(output.concat(SetfilesOutput.PREFIX + "lstat(", named.getBytes(charset),
            ") failed: " + lstat.reason() + "\n"));
        if (reporting != null && reporting.json() != null) {
          reporting.json().error(named.getBytes(charset), lstat.errno(), "lstat failed");
        }
      }
      return;
    }
    FileStat stat = lstat.stat();
    byte[] absolute = PathBytes.absolute(named.getBytes(charset));
    String text = new String(absolute, charset);
    // setfiles names the root as given: "/srv/" stays "/srv/" (its entries are "/srv/x" either way).
    String shown = named.startsWith("/") && stripTrailingSlashes(named).equals(text) ? named : text;
    FileType type = FileType.fromMode(stat.mode());
    String key = shown;
    if (alternateRoot != null) {
      if (text.equals(alternateRoot)) {
        key = "";
      } else if (text.startsWith(alternateRoot) && text.charAt(alternateRoot.length()) == '/') {
        key = shown.substring(alternateRoot.length());
      } else {
        output.entryError(output.concat(SetfilesOutput.PREFIX, shown.getBytes(charset),
            " is not located in alt_rootpath " + alternateRoot + "\n"));
        walked(named);
        return;
      }
    }
    // check_excluded: with recursion fts meets the root as a directory only; without, any root.
    boolean recurse = relabeler.options().recurse();
    if ((type == FileType.DIRECTORY || !recurse) && excludedDirectories.coversRoot(text.getBytes(charset))) {
      walked(named);
      return;
    }
    byte[] keyBytes = key.getBytes(charset);
    Label label = matcher.lookup(key.isEmpty() ? new byte[] {'/'} : keyBytes, type);
    if (trackUsedSpecs) {
      label.spec().ifPresent(usedSpecs::add);
    }
    if (label.kind() != Label.Kind.CONTEXT) {
      output.info(output.concat("Warning no default label for ", keyBytes, "\n"));
    }
    output.nameRoot(text.getBytes(charset), shown.getBytes(charset));
    if (reporting != null) {
      reporting.expect(absolute, reportedAs == null ? text : reportedAs);
    }
    // A signal interrupts this thread: run() then stops its workers and returns what they did.
    RelabelReport report = relabeler.runAbsolute(List.of(absolute));
    visited += report.visited();
    relabeled += report.relabeled();
    failed += report.failures().size();
    if (reporting != null) {
      reporting.completed(report);
    }
    walked(named);
    if (trackUsedSpecs) {
      // Every spec the run did not list as unused decided some entry.
      Set<Spec> unused = Collections.newSetFromMap(new IdentityHashMap<>());
      unused.addAll(report.unusedSpecs());
      matcher.specsInLibselinuxOrder().stream().filter(spec -> !unused.contains(spec)).forEach(usedSpecs::add);
    }
  }

  /**
   * selinux_restorecon's end of a recursive walk, whatever it met on the way (an excluded root, a
   * path outside -r's root): the -p text's line for {@code named}. Not for a path labelled alone
   * (no -R), nor when a signal stopped the walk (setfiles ends there).
   */
  private void walked(String named) {
    if (reporting != null && relabeler.options().recurse()
        && !(stopRequested != null && stopRequested.getAsBoolean())) {
      reporting.walked(named.getBytes(charset));
    }
  }

  /**
   * setfiles -W / restorecon -W: selabel_stats' line for each spec no lookup of the whole run was
   * decided by.
   */
  void warnUnusedSpecs() {
    java.util.Map<Path, Boolean> compiled = new java.util.HashMap<>();
    for (Spec unused : matcher.specsInLibselinuxOrder()) {
      if (!usedSpecs.contains(unused)) {
        // A spec read from a compiled FILE.bin has no type text for selabel_stats to print.
        boolean typeKnown = !compiled.computeIfAbsent(unused.file(), PathLabeller::loadedCompiled);
        String type = typeKnown ? unused.fileType().flag().map(flag -> flag + ", ").orElse("") : "";
        output.error(SetfilesOutput.PREFIX + "Warning!  No matches for (" + unused.regex() + ", " + type
            + unused.context() + ")\n");
      }
    }
  }

  /**
   * Whether libselinux reads {@code file}'s specs from its compiled twin {@code FILE.bin}
   * (label_file.c's open_file: the newer of the two by whole seconds, the .bin on a tie).
   */
  static boolean loadedCompiled(Path file) {
    try {
      Path bin = PathBytes.withSuffix(file, ".bin");
      if (!java.nio.file.Files.exists(bin)) {
        return false;
      }
      long text = java.nio.file.Files.getLastModifiedTime(file).to(java.util.concurrent.TimeUnit.SECONDS);
      long compiled = java.nio.file.Files.getLastModifiedTime(bin).to(java.util.concurrent.TimeUnit.SECONDS);
      return compiled >= text;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * selinux_restorecon's REALPATH: the realpath of the path's directory and its last component
   * ("/", "." and ".." are resolved whole); null, with libselinux's error said, when the directory
   * cannot be resolved.
   */
  private String canonical(String given) {
    String trimmed = stripTrailingSlashes(given);
    int slash = trimmed.lastIndexOf('/');
    String base = slash < 0 ? trimmed : trimmed.substring(slash + 1);
    String directory = slash < 0 ? "." : slash == 0 ? "/" : trimmed.substring(0, slash);
    try {
      if (trimmed.equals("/") || base.equals(".") || base.equals("..") || base.isEmpty()) {
        return new String(Kernel.linux().realPath(given.getBytes(charset)), charset);
      }
      String parent = new String(Kernel.linux().realPath(directory.getBytes(charset)), charset);
      return parent.equals("/") ? "/" + base : parent + "/" + base;
    } catch (NativeIoException e) {
      output.fatal(output.concat(SetfilesOutput.PREFIX + "SELinux: Could not get canonical path for ",
          given.getBytes(charset), " restorecon: " + e.reason() + ".\n"));
      return null;
    }
  }

  public static String stripTrailingSlashes(String path) {
    int end = path.length();
    while (end > 1 && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(0, end);
  }

  /** lstat(2) of a path as given: its status, or the error it failed with (one of the two is null). */
  record Lstat(FileStat stat, NativeIoException failure) {
    /** The errno for a report: 0 when it succeeded. */
    int errno() {
      return failure == null ? 0 : failure.errno();
    }

    /** Whether it failed, other than with EACCES (setfiles stats -r and -e paths and lets EACCES pass). */
    boolean failedOtherThanAccess() {
      return failure != null && !(failure instanceof NativeIoException.AccessDeniedException);
    }

    /** Whether it failed because the path does not exist. */
    boolean missing() {
      return failure instanceof NativeIoException.NoSuchEntryException;
    }

    /** The C library's words for the failure. */
    public String reason() {
      return failure.reason();
    }
  }

  static Lstat lstat(Charset charset, String path) {
    try {
      return new Lstat(Kernel.linux().lstat(path.getBytes(charset)), null);
    } catch (NativeIoException e) {
      return new Lstat(null, e);
    }
  }
}
