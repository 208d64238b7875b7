package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a relabel runs; immutable. Defaults are setfiles' defaults. Built as jimfs builds its
 * {@code Configuration}: {@code RelabelOptions.builder().threads(0).force(true).build()}, or
 * {@code options.toBuilder()...build()} to change some of a given set; each {@code withX} is
 * {@code toBuilder().x(...).build()}.
 *
 * @param threads worker threads ({@code -T}); 0 means one per available core
 * @param force set the whole context, not only the type, and ignore customizable types ({@code -F})
 * @param userRoleType set user, role and type ({@code -U})
 * @param dryRun decide and report, write nothing ({@code -n})
 * @param alternateRoot match paths as if this directory were "/" ({@code -r}); the bytes of its
 *     absolute, normalized path, one char per byte, as each of {@code excludes}
 * @param excludes directories not to label nor descend into ({@code -e}); as in libselinux, a root
 *     at or beneath one is skipped, a file is not excluded (except a root without recursion). Each
 *     is the bytes of an absolute, normalized path, one char per byte ({@link PathBytes#latin1}),
 *     so that a name the JDK cannot hold in a {@link Path} is excluded as well
 * @param oneFilesystem do not cross into other filesystems ({@code -x}): as in libselinux, an entry
 *     on another filesystem than its root's, a mount point included, is neither labelled nor descended
 * @param ignoreMissing a missing root is not an error ({@code -i})
 * @param checkSeclabel skip mounts without {@code seclabel} when SELinux is enabled (off with {@code -m})
 * @param hardLinkCheck report multiply-linked files whose names get different labels (off with {@code -A})
 * @param skipMultiLinked leave files with more than one link alone ({@code -j})
 * @param recurse descend into directories (restorecon without {@code -R} does not)
 * @param reportUnusedSpecs list, in the report, the specs that decided no entry ({@code -W}); off
 *     by default, since it costs a set insertion per entry
 * @param logMatches tell the listener the context each entry's spec gives ({@code setfiles -d})
 * @param digests whether directory digests are used and stored ({@code -D}, {@code -I})
 * @param changedAfter when present, only entries whose modification time (mtime, as
 *     {@code find -newermt} compares it: strictly later) is after this instant are labelled; the
 *     others are still walked through ({@code fixfiles -B} and {@code -N})
 */
public record RelabelOptions(
    int threads,
    boolean force,
    boolean userRoleType,
    boolean dryRun,
    Optional<String> alternateRoot,
    List<String> excludes,
    boolean oneFilesystem,
    boolean ignoreMissing,
    boolean checkSeclabel,
    boolean hardLinkCheck,
    boolean skipMultiLinked,
    boolean recurse,
    boolean reportUnusedSpecs,
    boolean logMatches,
    DirectoryDigests digests,
    Optional<Instant> changedAfter) {
  public RelabelOptions {
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be 0 (all cores) or more: " + threads);
    }
    excludes = List.copyOf(excludes);
    java.util.Objects.requireNonNull(digests, "digests");
    java.util.Objects.requireNonNull(changedAfter, "changedAfter");
  }

  /** setfiles' defaults: one thread, type-only changes, recursive, hard links checked. */
  public static RelabelOptions defaults() {
    return DEFAULTS;
  }

  private static final RelabelOptions DEFAULTS = builder().build();

  /** A builder holding setfiles' defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The number of workers this asks for. */
  public int workerCount() {
    return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
  }

  public RelabelOptions withThreads(int n) {
    return toBuilder().threads(n).build();
  }

  public RelabelOptions withForce(boolean on) {
    return toBuilder().force(on).build();
  }

  public RelabelOptions withUserRoleType(boolean on) {
    return toBuilder().userRoleType(on).build();
  }

  public RelabelOptions withDryRun(boolean on) {
    return toBuilder().dryRun(on).build();
  }

  public RelabelOptions withAlternateRoot(Path root) {
    return toBuilder().alternateRoot(root).build();
  }

  /** {@link #withAlternateRoot}, the directory given as the bytes of its path. */
  public RelabelOptions withAlternateRootBytes(byte[] root) {
    return toBuilder().alternateRootBytes(root).build();
  }

  public RelabelOptions withExcludes(List<Path> paths) {
    return toBuilder().excludes(paths).build();
  }

  /** {@link #withExcludes}, each directory given as the bytes of its path ({@link PathBytes#absolute(byte[])}). */
  public RelabelOptions withExcludedBytes(List<byte[]> paths) {
    return toBuilder().excludedBytes(paths).build();
  }

  public RelabelOptions withOneFilesystem(boolean on) {
    return toBuilder().oneFilesystem(on).build();
  }

  public RelabelOptions withIgnoreMissing(boolean on) {
    return toBuilder().ignoreMissing(on).build();
  }

  public RelabelOptions withCheckSeclabel(boolean on) {
    return toBuilder().checkSeclabel(on).build();
  }

  public RelabelOptions withHardLinkCheck(boolean on) {
    return toBuilder().hardLinkCheck(on).build();
  }

  public RelabelOptions withSkipMultiLinked(boolean on) {
    return toBuilder().skipMultiLinked(on).build();
  }

  public RelabelOptions withRecurse(boolean on) {
    return toBuilder().recurse(on).build();
  }

  public RelabelOptions withReportUnusedSpecs(boolean on) {
    return toBuilder().reportUnusedSpecs(on).build();
  }

  public RelabelOptions withLogMatches(boolean on) {
    return toBuilder().logMatches(on).build();
  }

  public RelabelOptions withDigests(DirectoryDigests mode) {
    return toBuilder().digests(mode).build();
  }

  public RelabelOptions withChangedAfter(Instant instant) {
    return toBuilder().changedAfter(instant).build();
  }

  /** Options under construction; {@link #build} checks them. */
  public static final class Builder {
    private int threads = 1;
    private boolean force = false;
    private boolean userRoleType = false;
    private boolean dryRun = false;
    private Optional<String> alternateRoot = Optional.empty();
    private List<String> excludes = List.of();
    private boolean oneFilesystem = false;
    private boolean ignoreMissing = false;
    private boolean checkSeclabel = true;
    private boolean hardLinkCheck = true;
    private boolean skipMultiLinked = false;
    private boolean recurse = true;
    private boolean reportUnusedSpecs = false;
    private boolean logMatches = false;
    private DirectoryDigests digests = DirectoryDigests.OFF;
    private Optional<Instant> changedAfter = Optional.empty();

    private Builder() {}

    private Builder(RelabelOptions options) {
      threads = options.threads;
      force = options.force;
      userRoleType = options.userRoleType;
      dryRun = options.dryRun;
      alternateRoot = options.alternateRoot;
      excludes = options.excludes;
      oneFilesystem = options.oneFilesystem;
      ignoreMissing = options.ignoreMissing;
      checkSeclabel = options.checkSeclabel;
      hardLinkCheck = options.hardLinkCheck;
      skipMultiLinked = options.skipMultiLinked;
      recurse = options.recurse;
      reportUnusedSpecs = options.reportUnusedSpecs;
      logMatches = options.logMatches;
      digests = options.digests;
      changedAfter = options.changedAfter;
    }

    public Builder threads(int n) {
      this.threads = n;
      return this;
    }

    public Builder force(boolean on) {
      this.force = on;
      return this;
    }

    public Builder userRoleType(boolean on) {
      this.userRoleType = on;
      return this;
    }

    public Builder dryRun(boolean on) {
      this.dryRun = on;
      return this;
    }

    /** Match paths as if {@code root} were "/" ({@code -r}). */
    public Builder alternateRoot(Path root) {
      this.alternateRoot = Optional.of(PathBytes.latin1(PathBytes.absolute(root)));
      return this;
    }

    /** {@link #alternateRoot}, the directory given as the bytes of its path, absolute or not. */
    public Builder alternateRootBytes(byte[] root) {
      this.alternateRoot = Optional.of(PathBytes.latin1(PathBytes.absolute(root)));
      return this;
    }

    public Builder excludes(List<Path> paths) {
      List<String> absolute = new ArrayList<>(paths.size());
      for (Path path : paths) {
        absolute.add(PathBytes.latin1(PathBytes.absolute(path)));
      }
      this.excludes = List.copyOf(absolute);
      return this;
    }

    /** {@link #excludes}, each directory given as the bytes of its path, absolute or not. */
    public Builder excludedBytes(List<byte[]> paths) {
      List<String> absolute = new ArrayList<>(paths.size());
      for (byte[] path : paths) {
        absolute.add(PathBytes.latin1(PathBytes.absolute(path)));
      }
      this.excludes = List.copyOf(absolute);
      return this;
    }

    public Builder oneFilesystem(boolean on) {
      this.oneFilesystem = on;
      return this;
    }

    public Builder ignoreMissing(boolean on) {
      this.ignoreMissing = on;
      return this;
    }

    public Builder checkSeclabel(boolean on) {
      this.checkSeclabel = on;
      return this;
    }

    public Builder hardLinkCheck(boolean on) {
      this.hardLinkCheck = on;
      return this;
    }

    public Builder skipMultiLinked(boolean on) {
      this.skipMultiLinked = on;
      return this;
    }

    public Builder recurse(boolean on) {
      this.recurse = on;
      return this;
    }

    public Builder reportUnusedSpecs(boolean on) {
      this.reportUnusedSpecs = on;
      return this;
    }

    public Builder logMatches(boolean on) {
      this.logMatches = on;
      return this;
    }

    public Builder digests(DirectoryDigests mode) {
      this.digests = mode;
      return this;
    }

    /** Only entries modified after {@code instant}; null for all. */
    public Builder changedAfter(Instant instant) {
      this.changedAfter = Optional.ofNullable(instant);
      return this;
    }

    public RelabelOptions build() {
      return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
          ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests,
          changedAfter);
    }
  }
}
