package dev.relabel.walk;

import dev.relabel.policy.PathBytes;
import java.io.IOException;
import java.util.List;

/**
 * What the mount table says about the roots one run walks recursively: read once, for the first
 * root that needs it (setfiles {@code -f} may name many), and kept only when some filesystem is
 * mounted in two places: without a bind mount no entry can be shown under two names, and on most
 * hosts none is (measured: a small {@code restorecon -R} was ~4 ms slower when every root's table
 * was searched).
 */
final class RootMounts {
  private final FileTree tree;
  private List<MountTable.Mount> mounts;

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
