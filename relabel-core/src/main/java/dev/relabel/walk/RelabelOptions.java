package dev.relabel.walk;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How a relabel runs; immutable. Defaults are setfiles' defaults.
 *
 * @param threads worker threads ({@code -T}); 0 means one per available core
 * @param force set the whole context, not only the type, and ignore customizable types ({@code -F})
 * @param userRoleType set user, role and type ({@code -U})
 * @param dryRun decide and report, write nothing ({@code -n})
 * @param alternateRoot match paths as if this directory were "/" ({@code -r})
 * @param excludes directories not to label nor descend into ({@code -e}); as in libselinux, a root
 *     at or beneath one is skipped, a file is not excluded (except a root without recursion)
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
 */
public record RelabelOptions(
    int threads,
    boolean force,
    boolean userRoleType,
    boolean dryRun,
    Optional<Path> alternateRoot,
    List<Path> excludes,
    boolean oneFilesystem,
    boolean ignoreMissing,
    boolean checkSeclabel,
    boolean hardLinkCheck,
    boolean skipMultiLinked,
    boolean recurse,
    boolean reportUnusedSpecs,
    boolean logMatches,
    DirectoryDigests digests) {
  public RelabelOptions {
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be 0 (all cores) or more: " + threads);
    }
    excludes = List.copyOf(excludes);
    java.util.Objects.requireNonNull(digests, "digests");
  }

  /** setfiles' defaults: one thread, type-only changes, recursive, hard links checked. */
  public static RelabelOptions defaults() {
    return new RelabelOptions(1, false, false, false, Optional.empty(), List.of(), false,
        false, true, true, false, true, false, false, DirectoryDigests.OFF);
  }

  /** The number of workers this asks for. */
  public int workerCount() {
    return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
  }

  public RelabelOptions withThreads(int n) {
    return new RelabelOptions(n, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withForce(boolean on) {
    return new RelabelOptions(threads, on, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withUserRoleType(boolean on) {
    return new RelabelOptions(threads, force, on, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withDryRun(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, on, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withAlternateRoot(Path root) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, Optional.of(root), excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withExcludes(List<Path> paths) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, paths, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withOneFilesystem(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, on,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withIgnoreMissing(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        on, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withCheckSeclabel(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, on, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withHardLinkCheck(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, on, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withSkipMultiLinked(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, on, recurse, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withRecurse(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, on, reportUnusedSpecs, logMatches, digests);
  }

  public RelabelOptions withReportUnusedSpecs(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, on, logMatches, digests);
  }

  public RelabelOptions withLogMatches(boolean on) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, on, digests);
  }

  public RelabelOptions withDigests(DirectoryDigests mode) {
    return new RelabelOptions(threads, force, userRoleType, dryRun, alternateRoot, excludes, oneFilesystem,
        ignoreMissing, checkSeclabel, hardLinkCheck, skipMultiLinked, recurse, reportUnusedSpecs, logMatches, mode);
  }
}
