package dev.relabel.walk;

/**
 * A directory a walk is in, by device and inode, and the directories above it up to the walk's
 * root: a directory met again beneath itself is a directory cycle (fts's FTS_DC, which glibc's fts
 * finds by this same comparison with every ancestor), reported and not entered.
 *
 * <p>Found as the walk meets each directory, not from the mount table, so that whatever makes the
 * cycle is seen: a bind mount of a directory beneath itself ({@code mount --bind / /mnt}), one made
 * while the walk runs (a container runtime's, an admin's), a filesystem that shows a directory
 * inside itself (a corrupt one, a FUSE or network one), which would be walked without end. It
 * costs no system call where the listing read each entry's status ahead (the setfiles and
 * restorecon walks); a walk that does not (chcon -R, a policy diff's) stats each directory it
 * meets once.
 */
record Ancestry(long device, long inode, Ancestry parent) {
  /** The walk's root directory, of status {@code root}. */
  static Ancestry root(FileTree.Status root) {
    return new Ancestry(root.device(), root.inode(), null);
  }

  /** The subdirectory of status {@code status} of this one. */
  Ancestry child(FileTree.Status status) {
    return new Ancestry(status.device(), status.inode(), this);
  }

  /**
   * Whether the directory of status {@code status}, met in this one, is this one or a directory
   * above it: a cycle. One comparison per level, a directory's, as fts makes (a hostile tree
   * thousands deep already costs as much in the path each level joins).
   */
  boolean isCycle(FileTree.Status status) {
    for (Ancestry above = this; above != null; above = above.parent) {
      if (above.inode == status.inode() && above.device == status.device()) {
        return true;
      }
    }
    return false;
  }
}
