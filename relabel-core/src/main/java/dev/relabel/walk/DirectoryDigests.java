package dev.relabel.walk;

/**
 * What a run does with libselinux's directory digests ({@code security.sehash}): the SHA-1 of every
 * spec that can label something in a directory's subtree, so that a later run can skip a tree the
 * policy has not changed for. As libselinux, digests are kept only when walking a directory
 * recursively on a filesystem that is not tmpfs, ramfs or sysfs (the root's filesystem decides).
 */
public enum DirectoryDigests {
  /** Digests are neither read nor written (setfiles' default). */
  OFF,
  /**
   * {@code setfiles -D}: a directory whose stored digest equals the policy's is skipped, itself
   * and everything beneath; when a root is walked without a failure, every other directory of it
   * gets the policy's digest.
   */
  SKIP_UNCHANGED,
  /** {@code setfiles -I}: nothing is skipped, but digests are stored as with {@link #SKIP_UNCHANGED}. */
  REFRESH
}
