package dev.relabel.walk;

import dev.relabel.match.DirectoryMatch;
import dev.relabel.policy.PathBytes;
import dev.relabel.nativeio.Errno;
import dev.relabel.nativeio.NativeIoException;
import dev.relabel.report.RelabelReport;
import dev.relabel.policy.FileType;
import java.io.IOException;
import java.util.concurrent.CountedCompleter;

/** Labels the entries of one directory and forks a task for each subdirectory it descends. */
final class DirectoryTask extends TreeTask {
  private static final long serialVersionUID = 1L;

  private final transient Walk walk;
  /** The lookups of this directory's entries; null once they are done ({@link #visitOver}). */
  private transient DirectoryMatch match;
  /** The filesystem the walk started on, for {@code -x}; -1 when not needed. */
  private final long device;

  DirectoryTask(CountedCompleter<?> completer, Walk walk, SharedDirectory parent, FileTree.Directory opened,
      byte[] name, byte[] path, Ancestry ancestry, DirectoryMatch match, long device) {
    super(completer, walk, parent, opened, name, path, ancestry);
    this.walk = walk;
    this.match = match;
    this.device = device;
  }

  @Override
  protected void internalError(byte[] at, RuntimeException e) {
    walk.fail(at, 0, "internal error: " + e);
  }

  @Override
  protected void cannotOpen(IOException e) {
    walk.fail(path, e);
  }

  /** Whether the tree vouched that this directory was opened on its parent's mount. */
  private transient boolean onParentsMount;

  /**
   * With -x, opened on its parent's mount where the tree can promise it: no mount made after
   * {@link #visitEntry} looked at the name is entered, and {@link #enters} needs no status.
   */
  @Override
  protected FileTree.Directory openChild(FileTree.Directory parent) throws IOException {
    if (walk.options.oneFilesystem()) {
      FileTree.Directory child = parent.openChildOnMount(name);
      if (child != null) {
        onParentsMount = true;
        return child;
      }
    }
    return parent.openChild(name, path);
  }

  /**
   * With -x, a directory on another filesystem than the walk's start is not listed. One opened on
   * its parent's mount is on it (its parent was listed); any other is checked by its device: a
   * mount point, or a directory bind-mounted from the start's own filesystem (listed, as fts's
   * FTS_XDEV does), or a tree that cannot tell.
   */
  @Override
  protected boolean enters(FileTree.Directory directory) throws IOException {
    return !walk.options.oneFilesystem() || onParentsMount || directory.status(new byte[0], path).device() == device;
  }

  @Override
  protected boolean readsAhead() {
    return walk.readsEveryEntry();
  }

  @Override
  protected void cannotList(IOException e) {
    walk.fail(path, e);
  }

  /** A match holds its directory's path thrice (path, key, the children's prefix). */
  @Override
  protected void visitOver() {
    super.visitOver();
    match = null;
  }

  @Override
  protected void visitEntry(FileTree.Directory directory, SharedDirectory self, FileTree.Entry entry) {
    byte[] childPath = Walk.join(path, entry.name());
    boolean descend = true;
    try {
      FileType type = entry.type();
      FileTree.Status status = null;
      if (entry.typeUnknown()) {
        status = directory.status(entry, childPath);
        type = status.type();
      }
      if (type == FileType.DIRECTORY && status == null) {
        status = directory.status(entry, childPath);
      }
      // fts tells a directory cycle before selinux_restorecon looks at the exclude list.
      if (type == FileType.DIRECTORY && ancestry.isCycle(status)) {
        walk.fail(childPath, Errno.ELOOP, RelabelReport.DIRECTORY_CYCLE);
        return;
      }
      // selinux_restorecon checks its exclude list for directories only (at FTS_D).
      if (type == FileType.DIRECTORY && walk.isExcluded(childPath)) {
        return;
      }
      // With -x, as selinux_restorecon: an entry on another filesystem (a mount point, or a file
      // bind-mounted) is neither labelled nor descended.
      if (walk.options.oneFilesystem()) {
        if (status == null) {
          status = directory.status(entry, childPath);
        }
        if (status.device() != device) {
          return;
        }
      }
      if (type == FileType.DIRECTORY && walk.digestsActive()) {
        if (walk.skipUnchanged(directory, entry.name(), childPath, status)) {
          return;
        }
      }
      String childName = PathBytes.latin1(entry.name());
      try {
        walk.label(directory, entry, childPath, type, status, match.lookup(childName, type));
      } catch (IOException e) {
        walk.fail(childPath, e);
        // As selinux_restorecon (fts goes on into the directory whatever its label did): a
        // directory whose label cannot be read or set (EROFS, ENOTSUP, EPERM) is still descended,
        // and each entry below it tried and reported. Only one that is gone is not.
        descend = !(e instanceof NativeIoException.NoSuchEntryException);
      }
      if (type == FileType.DIRECTORY && descend && walk.descends(childPath)) {
        forkChild(self, new DirectoryTask(this, walk, self, null, entry.name(), childPath, ancestry.child(status),
            match.enter(childName), device));
      }
    } catch (IOException e) {
      walk.fail(childPath, e);
    } catch (RuntimeException e) {
      // A bug, not the filesystem: still this entry's failure, and the walk goes on.
      walk.fail(childPath, 0, "internal error: " + e);
    }
  }
}
