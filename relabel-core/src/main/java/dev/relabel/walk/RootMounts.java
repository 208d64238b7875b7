package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;

/**
 * What the mount table says about the roots one run walks recursively: read once, for the first
 * root that needs it (setfiles {@code -f} and chcon may name many), and kept only when some
 * filesystem is mounted in two places: without a bind mount neither a directory cycle nor an
 * entry shown under two names can exist, and on most hosts none is (measured: a small
 * {@code restorecon -R} was ~4 ms slower when every root's table was searched).
 */
final class RootMounts {
  private final FileTree tree;
  private List<MountTable.Mount> mounts;
  /**
   * The current root's directory cycles ({@link BoundTwice#cycles}), as its walk names entries, one
   * char per byte; almost always none. Set on the caller's thread before the root's first task is
   * handed to the pool (which publishes it to the workers), read for every directory.
   */
  private Set<String> cycles = Set.of();

  RootMounts(FileTree tree) {
    this.tree = tree;
  }

  /** The table, or empty when no filesystem is mounted twice ({@link BoundTwice#anyMountedTwice}). */
  List<MountTable.Mount> table() {
    if (mounts == null) {
      List<MountTable.Mount> table = MountTable.parse(tree.mountTable());
      mounts = BoundTwice.anyMountedTwice(table) ? table : List.of();
    }
    return mounts;
  }

  /**
   * Finds the directory cycles inside {@code root} (whose real path is {@code realRoot}) for {@link
   * #isCycle}, spelled as its walk names entries ({@link #spelled}); returns them as the table spells
   * them, empty when none.
   */
  Set<String> findCycles(byte[] root, String realRoot, BinaryOperator<byte[]> join) {
    Set<String> found = BoundTwice.cycles(realRoot, table());
    cycles = spelled(found, root, realRoot, join);
    return found;
  }

  /** Called before each root, whether or not it is searched for cycles. */
  void forgetCycles() {
    cycles = Set.of();
  }

  /** Whether the directory {@code path} is one of the current root's cycles, which fts reports and does not enter. */
  boolean isCycle(byte[] path) {
    return !cycles.isEmpty() && cycles.contains(PathBytes.latin1(path));
  }

  /**
   * {@link BoundTwice#cycles} found by a root's real path, spelled as the walk of the root as
   * given names its entries: {@code join(given, "a/b")} for the cycle {@code REAL/a/b}.
   */
  static Set<String> spelled(Set<String> cycles, byte[] given, String realRoot, BinaryOperator<byte[]> join) {
    if (cycles.isEmpty()) {
      return Set.of();
    }
    Set<String> spelled = new HashSet<>();
    int below = realRoot.equals("/") ? 1 : realRoot.length() + 1;
    for (String cycle : cycles) {
      spelled.add(PathBytes.latin1(join.apply(given, PathBytes.fromLatin1(cycle.substring(below)))));
    }
    return spelled;
  }

  /**
   * The root's path with the symlinks among its directories resolved, as the mount table names
   * mount points; as given when that fails (the walk then reports what it meets).
   */
  static String realPath(byte[] root) {
    try {
      return PathBytes.latin1(PathBytes.of(PathBytes.path(PathBytes.text(root)).toRealPath()));
    } catch (IOException | RuntimeException e) {
      return PathBytes.latin1(root);
    }
  }
}
